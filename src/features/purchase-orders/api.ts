// Every call of the purchase-order pages (issue 31, server/modules/purchase-orders): the list with its
// tab counts, one purchase order, making one, its changes (send, receive goods, cancel) and the
// suppliers. Writes answer the purchase order as it is now, so the page shows the server's state
// without a second read; their refusals show where the user acted.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CreatePurchaseOrderBody,
  PURCHASE_ORDERS_API,
  type PurchaseOrderDetail,
  purchaseOrderDetailSchema,
  purchaseOrderListSchema,
  type ReceiptBody,
  SUPPLIERS_API,
  type SupplierBody,
  supplierListSchema,
  supplierSchema,
} from '../../../contracts/purchase-orders';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';
import type { PurchaseOrderListRequest } from './url-state';

export const purchaseOrderKeys = queryKeys<PurchaseOrderListRequest>('purchase-orders');

export interface SupplierListRequest {
  query?: string;
  activeOnly?: 'true' | 'false';
  skip?: number;
  limit?: number;
}
export const supplierKeys = queryKeys<SupplierListRequest>('suppliers');

const idPath = (id: string) => `${PURCHASE_ORDERS_API}/${encodeURIComponent(id)}`;

/** The purchase order as a PDF, opened inline in the browser. */
export const purchaseOrderPdfLink = (id: string) => `${idPath(id)}/pdf`;

export const usePurchaseOrderList = (request: PurchaseOrderListRequest) =>
  useQuery({
    queryKey: purchaseOrderKeys.list(request),
    queryFn: async ({ signal }) =>
      purchaseOrderListSchema.parse(
        (await http.get(PURCHASE_ORDERS_API, { params: request, signal, silent: true })).data,
      ),
    placeholderData: keepPreviousData,
  });

export const usePurchaseOrderDetail = (id: string | null) =>
  useQuery({
    queryKey: purchaseOrderKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      purchaseOrderDetailSchema.parse((await http.get(idPath(id ?? ''), { signal, silent: true })).data),
    enabled: Boolean(id),
  });

/** After any write: the answer is the purchase order now; the list rows and tab counts go stale. */
function usePurchaseOrderWrite<Body>(send: (body: Body) => Promise<{ data: unknown }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body) => purchaseOrderDetailSchema.parse((await send(body)).data),
    onSuccess: (po: PurchaseOrderDetail) => {
      client.setQueryData(purchaseOrderKeys.detail(po.id), po);
      void client.invalidateQueries({ queryKey: purchaseOrderKeys.lists() });
    },
  });
}

export const useCreatePurchaseOrder = () =>
  usePurchaseOrderWrite((body: CreatePurchaseOrderBody) =>
    http.post(PURCHASE_ORDERS_API, body, { silent: true }),
  );

export const useSendPurchaseOrder = (id: string) =>
  usePurchaseOrderWrite(() => http.post(`${idPath(id)}/send`, {}, { silent: true }));

export const useReceiveGoods = (id: string) =>
  usePurchaseOrderWrite((body: ReceiptBody) => http.post(`${idPath(id)}/receipts`, body, { silent: true }));

export const useCancelPurchaseOrder = (id: string) =>
  usePurchaseOrderWrite((reason: string) => http.post(`${idPath(id)}/cancel`, { reason }, { silent: true }));

export const useSupplierList = (request: SupplierListRequest, enabled = true) =>
  useQuery({
    queryKey: supplierKeys.list(request),
    queryFn: async ({ signal }) =>
      supplierListSchema.parse(
        (await http.get(SUPPLIERS_API, { params: request, signal, silent: true })).data,
      ),
    placeholderData: keepPreviousData,
    enabled,
  });

/** Adds a supplier (no id) or changes one; every supplier list and purchase order reads again. */
export function useSaveSupplier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: string | null; body: SupplierBody }) =>
      supplierSchema.parse(
        (id
          ? await http.put(`${SUPPLIERS_API}/${encodeURIComponent(id)}`, body, { silent: true })
          : await http.post(SUPPLIERS_API, body, { silent: true })
        ).data,
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: supplierKeys.all });
      // Lists and pages show the supplier's name.
      void client.invalidateQueries({ queryKey: purchaseOrderKeys.all });
    },
  });
}
