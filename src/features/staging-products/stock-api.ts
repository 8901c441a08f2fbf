// A product's stock (issue 31): on hand, reserved, available, the low-stock threshold and the ledger.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ProductStock,
  productStockSchema,
  STOCK_API,
  type StockAdjustmentBody,
} from '../../../contracts/stock';
import { http } from '../../services/http';
import { stagingKeys } from './api';

const stockKey = (productId: string) => [...stagingKeys.all, 'stock', productId] as const;

export const useProductStock = (productId: string) =>
  useQuery({
    queryKey: stockKey(productId),
    queryFn: async ({ signal }): Promise<ProductStock> =>
      productStockSchema.parse((await http.get(`${STOCK_API}/${productId}`, { signal, silent: true })).data),
  });

/** After a change, the stock and the product (its inventory figure) are read again. */
function useStockWrite<Body>(productId: string, write: (body: Body) => Promise<ProductStock>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (stock) => {
      client.setQueryData(stockKey(productId), stock);
      void client.invalidateQueries({ queryKey: stagingKeys.detail(productId) });
    },
  });
}

export const useAdjustStock = (productId: string) =>
  useStockWrite(productId, async (body: StockAdjustmentBody) =>
    productStockSchema.parse(
      (await http.post(`${STOCK_API}/${productId}/adjustments`, body, { silent: true })).data,
    ),
  );

export const useStockThreshold = (productId: string) =>
  useStockWrite(productId, async (threshold: number) =>
    productStockSchema.parse(
      (await http.put(`${STOCK_API}/${productId}/threshold`, { threshold }, { silent: true })).data,
    ),
  );
