// Where an accepted enquiry goes: a question becomes a customer query (channel 'form', linked to the
// marketing contact of its address), an offer request an offer in status "requested" (offers/requests.ts,
// which links the contact and tells the seller's users). Both are made by their own modules; this only
// maps the form's fields onto them.
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../lib/http-error';
import { createOfferRequest } from '../offers/requests';

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
  async question() {
    // TODO(issue 30): createQuery from server/modules/queries/create.ts (Q-SERVER) once it is committed.
    throw new HttpError(
      503,
      'This shop cannot take questions at the moment. Please try again later.',
      'ENQUIRIES_UNAVAILABLE',
    );
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
