import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteStaffBody, StaffList, StaffMessage, StaffStatusFilter } from '../../../contracts/staff';
import { queryKeys } from '../../lib/query-keys';
import { http } from '../../services/http';

export interface StaffListQuery {
  query: string;
  status: StaffStatusFilter;
  skip: number;
  limit: number;
}

export const staffKeys = queryKeys<StaffListQuery>('staff');

export const useStaffList = (q: StaffListQuery) =>
  useQuery({
    queryKey: staffKeys.list(q),
    queryFn: async ({ signal }): Promise<StaffList> =>
      (
        await http.get('/api/v1/staff/listStaff', {
          params: { ...q, query: q.query || undefined },
          signal,
          silent: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });

function useInvalidateStaff() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: staffKeys.lists() });
}

/** Failures are shown in the dialog that asked, so they are not toasted as well. */
export const useInviteStaff = () =>
  useMutation({
    mutationFn: async (body: InviteStaffBody): Promise<StaffMessage> =>
      (await http.post('/api/v1/staff/inviteStaff', body, { silent: true })).data,
    onSuccess: useInvalidateStaff(),
  });

export const useSetStaffActive = () =>
  useMutation({
    mutationFn: async (input: { id: string; isActive: boolean }): Promise<StaffMessage> =>
      (
        await http.put(
          `/api/v1/staff/updateStaffStatus/${input.id}`,
          { isActive: input.isActive },
          { silent: true },
        )
      ).data,
    onSuccess: useInvalidateStaff(),
  });

/** A row action without a dialog: a failure is toasted by the HTTP client. */
export const useResendInvite = () =>
  useMutation({
    mutationFn: async (id: string): Promise<StaffMessage> =>
      (await http.post(`/api/v1/staff/resendInvite/${id}`)).data,
  });
