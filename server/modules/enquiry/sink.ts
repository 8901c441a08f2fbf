// Where an accepted enquiry goes: a question becomes a customer query (channel 'form', linked to the
// marketing contact of its address), an offer request an offer in status "requested" (offers/requests.ts,
// which links the contact and tells the seller's users). Both are made by their own modules; this only
// maps the form's fields onto them.

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { customerQueries } from '../../db/schema';
import { createOfferRequest } from '../offers/requests';
import { announceNewQuery } from '../queries/announce';
import { createQuery } from '../queries/repository';
import { slaSettings } from '../queries/routes';

interface Customer {
  sellerId: string;
  name: string;
  email: string;
  phone: string;
  subject: string;
  message: string;
}

export interface EnquirySink {
  question(
    app: FastifyInstance,
    input: Customer & { productId: string | null },
  ): Promise<{ reference: string }>;
  offer(
    app: FastifyInstance,
    input: Customer & { lines: { productId: string; quantity: number }[]; shippingCountry: string | null },
  ): Promise<{ reference: string }>;
}

export const enquirySink: EnquirySink = {
  async question(app, input) {
    const id = await createQuery(
      app.db,
      {
        sellerId: input.sellerId,
        customerName: input.name,
        email: input.email,
        phone: input.phone,
        subject: input.subject,
        message: input.message,
        productId: input.productId,
        channel: 'form',
        actor: null,
      },
      await slaSettings(app),
    );
    await announceNewQuery(app, id);
    const [row] = await app.db
      .select({ number: customerQueries.number })
      .from(customerQueries)
      .where(eq(customerQueries.id, id));
    return { reference: `Q-${row?.number ?? ''}` };
  },
  async offer(app, input) {
    const created = await createOfferRequest(
      app.db,
      {
        sellerId: input.sellerId,
        customerName: input.name,
        email: input.email,
        phone: input.phone,
        items: input.lines,
        message: input.message,
        shippingAddress: input.shippingCountry
          ? {
              fullName: input.name,
              email: input.email,
              addressLine1: '',
              addressLine2: '',
              city: '',
              state: '',
              country: input.shippingCountry,
              zipcode: '',
            }
          : null,
      },
      { notify: (userId, notification) => app.notifications.notify(userId, notification) },
    );
    return { reference: created.reference };
  },
};
