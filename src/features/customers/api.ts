import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Customer, CustomerList, UpdateCustomerBody } from '../../../contracts/customers';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';

export interface CustomerListQuery {
  /** Empty: the plain list; otherwise a search by name, e-mail or phone. */
  query: string;
  skip: number;
  limit: number;
}

export const customerKeys = queryKeys<CustomerListQuery>('customers');

/** SPEC §7: listCustomers for the list, searchCustomers once there is something to search for. */
export const useCustomers = (q: CustomerListQuery) =>
  useQuery({
    queryKey: customerKeys.list(q),
    queryFn: async ({ signal }): Promise<CustomerList> => {
      const { query, skip, limit } = q;
      const response = query
        ? await http.get('/api/v1/users/searchCustomers', {
            params: { query, skip, limit },
            signal,
            silent: true,
          })
        : await http.get('/api/v1/users/listCustomers', { params: { skip, limit }, signal, silent: true });
      return response.data;
    },
    placeholderData: keepPreviousData,
  });

export const useCustomer = (id: string | null) =>
  useQuery({
    queryKey: customerKeys.detail(id ?? ''),
    queryFn: async ({ signal }): Promise<Customer> =>
      (await http.get(`/api/v1/users/customers/${id}`, { signal, silent: true })).data,
    enabled: !!id,
  });

/** The form shows the server's refusal itself, so it is not toasted as well. */
export const useUpdateCustomer = (id: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateCustomerBody): Promise<Customer> =>
      (await http.put(`/api/v1/users/customers/${id}`, body, { silent: true })).data,
    onSuccess: (customer) => {
      client.setQueryData(customerKeys.detail(id), customer);
      return client.invalidateQueries({ queryKey: customerKeys.lists() });
    },
  });
};
