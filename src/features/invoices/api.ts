// Every call of the invoice pages (issue 31, server/modules/invoices): the list with its tab counts (and
// the Marketing section's read of it), one invoice, making a draft (from an order, a seller's
// subscription period or by hand), its changes (issue, payments, a failed payment, cancelling with a
// credit note, mailing it, deleting a draft) and the register export. Writes answer the invoice as it is
// now, so the page shows the server's state without a second read; refusals show where the user acted.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CreateInvoiceBody,
  INVOICES_API,
  type InvoiceDetail,
  type InvoiceRegisterBody,
  invoiceDetailSchema,
  invoiceListSchema,
} from '../../../contracts/invoices';
import { type TaskStatusInfo, taskAcceptedSchema } from '../../../contracts/notifications';
import { ORDERS_API, orderListSchema } from '../../../contracts/orders';
import { sellerSubscriptionsSchema } from '../../../contracts/subscriptions';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';
import type { InvoiceListRequest } from './url-state';

/** Where a list page reads: Manage Invoices' list, or the Marketing section's read of the same list. */
export type InvoiceListSource = 'invoices' | 'marketing';

export const invoiceKeys = queryKeys<{ source: InvoiceListSource; request: InvoiceListRequest }>('invoices');

const idPath = (id: string) => `${INVOICES_API}/${encodeURIComponent(id)}`;

/** The files of an issued invoice: plain same-origin links (the session cookie goes with them). */
export const invoiceFileLink = (id: string, file: 'pdf' | 'xml' | 'gst.json') => `${idPath(id)}/${file}`;

export const useInvoiceList = (source: InvoiceListSource, request: InvoiceListRequest) =>
  useQuery({
    queryKey: invoiceKeys.list({ source, request }),
    queryFn: async ({ signal }) =>
      invoiceListSchema.parse(
        (
          await http.get(source === 'marketing' ? `${INVOICES_API}/marketing` : INVOICES_API, {
            params: request,
            signal,
            silent: true,
          })
        ).data,
      ),
    placeholderData: keepPreviousData,
  });

export const useInvoiceDetail = (id: string | null) =>
  useQuery({
    queryKey: invoiceKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      invoiceDetailSchema.parse((await http.get(idPath(id ?? ''), { signal, silent: true })).data),
    enabled: Boolean(id),
  });

/** After any write: the answer is the invoice now; the list rows and tab counts go stale. */
function useInvoiceWrite<Body>(send: (body: Body) => Promise<{ data: unknown }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body) => invoiceDetailSchema.parse((await send(body)).data),
    onSuccess: (invoice: InvoiceDetail) => {
      client.setQueryData(invoiceKeys.detail(invoice.id), invoice);
      void client.invalidateQueries({ queryKey: invoiceKeys.lists() });
    },
  });
}

export const useCreateInvoice = () =>
  useInvoiceWrite((body: CreateInvoiceBody) => http.post(INVOICES_API, body, { silent: true }));

export const useIssueInvoice = (id: string) =>
  useInvoiceWrite((_: undefined) => http.post(`${idPath(id)}/issue`, {}, { silent: true }));

export const useInvoicePayment = (id: string) =>
  useInvoiceWrite((body: { amountMinor: number; paidOn: string; reference: string }) =>
    http.post(`${idPath(id)}/payments`, body, { silent: true }),
  );

export const useMarkPaymentFailed = (id: string) =>
  useInvoiceWrite((reason: string) => http.post(`${idPath(id)}/failed`, { reason }, { silent: true }));

export const useCancelInvoice = (id: string) =>
  useInvoiceWrite((reason: string) => http.post(`${idPath(id)}/cancel`, { reason }, { silent: true }));

export const useMailInvoice = (id: string) =>
  useInvoiceWrite((to: string | undefined) =>
    http.post(`${idPath(id)}/mail`, to ? { to } : {}, { silent: true }),
  );

/** Deletes a draft (204): its page has nothing left to show, the lists lose a row. */
export function useDeleteInvoice(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await http.delete(idPath(id), { silent: true });
    },
    onSuccess: () => {
      client.removeQueries({ queryKey: invoiceKeys.detail(id) });
      void client.invalidateQueries({ queryKey: invoiceKeys.lists() });
    },
  });
}

/** Starts the register export; the file arrives as a notification with its link. */
export const useInvoiceRegister = () =>
  useMutation({
    mutationFn: async (body: InvoiceRegisterBody): Promise<TaskStatusInfo> =>
      taskAcceptedSchema.parse((await http.post(`${INVOICES_API}/register`, body, { silent: true })).data)
        .taskStatus,
  });

// ── Choosing what a draft is made from ──────────────────────────────────────────────────────────────

/** Orders found by number, customer or e-mail (the first ten), for "From an order". */
export const useOrderSearch = (query: string) =>
  useQuery({
    queryKey: ['invoices', 'order-choices', query] as const,
    queryFn: async ({ signal }) =>
      orderListSchema.parse(
        (await http.get(ORDERS_API, { params: { query, skip: 0, limit: 10 }, signal, silent: true })).data,
      ).result,
    placeholderData: keepPreviousData,
  });

/** A seller's subscription periods, latest first, for "Subscription period" (admins only). */
export const useSellerPeriods = (sellerId: string) =>
  useQuery({
    queryKey: ['invoices', 'subscription-periods', sellerId] as const,
    queryFn: async ({ signal }) =>
      sellerSubscriptionsSchema.parse(
        (
          await http.get('/api/v1/subscriptionManager/getSellerSubscriptions', {
            params: { sellerId, skip: 0, limit: 24 },
            signal,
            silent: true,
          })
        ).data,
      ).periods,
    enabled: Boolean(sellerId),
  });
