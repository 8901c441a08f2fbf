// Every call of the order pages (issue 31, server/modules/orders): the list with its tab counts, one
// order, placing one (by hand or from an accepted offer) and its changes (payments, refunds, the
// shipment, delivery, cancelling, an edit of the lines). Writes answer the order as it is now, so the
// page shows the server's state without a second read; their refusals show where the user acted.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type TaskStatusInfo, taskAcceptedSchema } from '../../../contracts/notifications';
import {
  type CreateOrderBody,
  type EditOrderBody,
  ORDERS_API,
  type OrderDetail,
  type OrdersExportBody,
  orderDetailSchema,
  orderListSchema,
  type PaymentBody,
  type RefundBody,
  type ShipmentBody,
} from '../../../contracts/orders';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';
import type { OrderListRequest } from './url-state';

export const orderKeys = queryKeys<OrderListRequest>('orders');

const idPath = (id: string) => `${ORDERS_API}/${encodeURIComponent(id)}`;

export const useOrderList = (request: OrderListRequest) =>
  useQuery({
    queryKey: orderKeys.list(request),
    queryFn: async ({ signal }) =>
      orderListSchema.parse((await http.get(ORDERS_API, { params: request, signal, silent: true })).data),
    placeholderData: keepPreviousData,
  });

export const useOrderDetail = (id: string | null) =>
  useQuery({
    queryKey: orderKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      orderDetailSchema.parse((await http.get(idPath(id ?? ''), { signal, silent: true })).data),
    enabled: Boolean(id),
  });

/** After any write: the answer is the order now; the list rows and tab counts go stale. */
function useOrderWrite<Body>(send: (body: Body) => Promise<{ data: unknown }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body) => orderDetailSchema.parse((await send(body)).data),
    onSuccess: (order: OrderDetail) => {
      client.setQueryData(orderKeys.detail(order.id), order);
      void client.invalidateQueries({ queryKey: orderKeys.lists() });
    },
  });
}

export const useCreateOrder = () =>
  useOrderWrite((body: CreateOrderBody) => http.post(ORDERS_API, body, { silent: true }));

export const useOrderFromOffer = () =>
  useOrderWrite((offerId: string) =>
    http.post(`${ORDERS_API}/fromOffer/${encodeURIComponent(offerId)}`, {}, { silent: true }),
  );

export const useEditOrder = (id: string) =>
  useOrderWrite((body: EditOrderBody) => http.put(idPath(id), body, { silent: true }));

export const useRecordPayment = (id: string) =>
  useOrderWrite((body: PaymentBody) => http.post(`${idPath(id)}/payments`, body, { silent: true }));

export const useRefund = (id: string) =>
  useOrderWrite((body: RefundBody) => http.post(`${idPath(id)}/refunds`, body, { silent: true }));

export const useShipOrder = (id: string) =>
  useOrderWrite((body: ShipmentBody) => http.post(`${idPath(id)}/shipments`, body, { silent: true }));

export const useMarkDelivered = (id: string) =>
  useOrderWrite(() => http.post(`${idPath(id)}/delivered`, {}, { silent: true }));

export const useCancelOrder = (id: string) =>
  useOrderWrite((reason: string) => http.post(`${idPath(id)}/cancel`, { reason }, { silent: true }));

/** Starts the export of what the list selects; the file arrives as a notification. */
export const useExportOrders = () =>
  useMutation({
    mutationFn: async (body: OrdersExportBody): Promise<TaskStatusInfo> =>
      taskAcceptedSchema.parse((await http.post(`${ORDERS_API}/export`, body)).data).taskStatus,
  });
