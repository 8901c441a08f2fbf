// Every call of the Contacts page: the list and its query fields, one contact and its timeline, the
// writes, company types and lead imports. Every answer is parsed with its contract; writes show their
// refusal where the user acted (a dialog), so none is toasted.
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import {
  type CompanyTypeBody,
  type ContactInput,
  type ContactListQuery,
  type ContactsExportBody,
  companyTypeListSchema,
  companyTypeSchema,
  contactListSchema,
  contactSchema,
  contactTimelineSchema,
  leadImportListSchema,
  leadImportSchema,
  leadRowsSchema,
  type StartLeadImportBody,
} from '../../../contracts/contacts';
import type { LeadRowOutcome } from '../../../contracts/marketing';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import type { QueryField } from '../../../contracts/query-tree';
import { queryKeys } from '../../lib/query-keys';
import { HISTORY_PAGE_SIZE } from '../../services/history-query';
import { http } from '../../services/http';

export const CONTACTS_API = '/api/v1/contacts';

export const contactKeys = {
  ...queryKeys<ContactListQuery>('contacts'),
  fields: () => [...contactKeys.all, 'fields'] as const,
  timeline: (id: string) => [...contactKeys.all, 'timeline', id] as const,
  companyTypes: () => [...contactKeys.all, 'company-types'] as const,
  leadImports: () => [...contactKeys.all, 'lead-imports'] as const,
  leadImport: (id: string) => [...contactKeys.leadImports(), id] as const,
  leadRows: (id: string, outcome: LeadRowOutcome | null, skip: number) =>
    [...contactKeys.leadImport(id), 'rows', outcome, skip] as const,
};

export const useContactList = (query: ContactListQuery) =>
  useQuery({
    queryKey: contactKeys.list(query),
    queryFn: async ({ signal }) =>
      contactListSchema.parse((await http.get(CONTACTS_API, { params: query, signal, silent: true })).data),
    placeholderData: keepPreviousData,
  });

/** Starts an export of what the list selects; the answer's `taskStatus` goes to the task handler. */
export const useExportContacts = () =>
  useMutation({
    mutationFn: async (body: ContactsExportBody) =>
      taskAcceptedSchema.parse((await http.post(`${CONTACTS_API}/export`, body)).data).taskStatus,
  });

const fieldListSchema = z.object({ result: z.array(z.custom<QueryField>()) });
export const useContactFields = (enabled: boolean) =>
  useQuery({
    queryKey: contactKeys.fields(),
    queryFn: async ({ signal }) =>
      fieldListSchema.parse((await http.get(`${CONTACTS_API}/queryFields`, { signal, silent: true })).data)
        .result,
    enabled,
    staleTime: 60_000,
  });

export const useContact = (id: string | null) =>
  useQuery({
    queryKey: contactKeys.detail(id ?? ''),
    queryFn: async ({ signal }) =>
      contactSchema.parse(
        (await http.get(`${CONTACTS_API}/${encodeURIComponent(id ?? '')}`, { signal, silent: true })).data,
      ),
    enabled: Boolean(id),
  });

/** The contact's timeline, newest first, older pages on demand (src/ui/history-timeline.tsx). */
export const useContactTimeline = (id: string) =>
  useInfiniteQuery({
    queryKey: contactKeys.timeline(id),
    queryFn: async ({ pageParam, signal }) =>
      contactTimelineSchema.parse(
        (
          await http.get(`${CONTACTS_API}/${encodeURIComponent(id)}/history`, {
            params: { skip: pageParam, limit: HISTORY_PAGE_SIZE },
            signal,
            silent: true,
          })
        ).data,
      ),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.result.length, 0);
      return loaded < last.count ? loaded : undefined;
    },
  });

/** After a contact write: its lists, its page and its timeline go stale (and the builder's tag options). */
function useContactsChanged() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: contactKeys.all });
}

export function useSaveContact() {
  const changed = useContactsChanged();
  return useMutation({
    mutationFn: async ({ id, ...body }: ContactInput & { id?: string; version?: number }) =>
      contactSchema.parse(
        (id
          ? await http.put(`${CONTACTS_API}/${encodeURIComponent(id)}`, body, { silent: true })
          : await http.post(CONTACTS_API, body, { silent: true })
        ).data,
      ),
    onSuccess: changed,
  });
}

export function useDeleteContact() {
  const changed = useContactsChanged();
  return useMutation({
    mutationFn: async ({ id, version }: { id: string; version: number }) =>
      http.post(`${CONTACTS_API}/${encodeURIComponent(id)}/delete`, { version }, { silent: true }),
    onSuccess: changed,
  });
}

export function useUnsubscribeContact() {
  const changed = useContactsChanged();
  return useMutation({
    mutationFn: async ({ id, version }: { id: string; version: number }) =>
      contactSchema.parse(
        (
          await http.post(
            `${CONTACTS_API}/${encodeURIComponent(id)}/unsubscribe`,
            { version },
            { silent: true },
          )
        ).data,
      ),
    onSuccess: changed,
  });
}

// ── Company types ───────────────────────────────────────────────────────────────────────────────────

export const useCompanyTypes = () =>
  useQuery({
    queryKey: contactKeys.companyTypes(),
    queryFn: async ({ signal }) =>
      companyTypeListSchema.parse(
        (await http.get(`${CONTACTS_API}/companyTypes`, { signal, silent: true })).data,
      ).result,
  });

export function useSaveCompanyType() {
  const changed = useContactsChanged();
  return useMutation({
    mutationFn: async ({ id, ...body }: CompanyTypeBody & { id?: string }) =>
      companyTypeSchema.parse(
        (id
          ? await http.put(`${CONTACTS_API}/companyTypes/${encodeURIComponent(id)}`, body, { silent: true })
          : await http.post(`${CONTACTS_API}/companyTypes`, body, { silent: true })
        ).data,
      ),
    onSuccess: changed,
  });
}

export function useDeleteCompanyType() {
  const changed = useContactsChanged();
  return useMutation({
    mutationFn: async (id: string) =>
      (await http.post(`${CONTACTS_API}/companyTypes/${encodeURIComponent(id)}/delete`, {}, { silent: true }))
        .data as { contacts: number },
    onSuccess: changed,
  });
}

// ── Lead imports ────────────────────────────────────────────────────────────────────────────────────

/** An import being followed: read every second while its job runs. */
export const useLeadImport = (id: string | null) =>
  useQuery({
    queryKey: contactKeys.leadImport(id ?? ''),
    queryFn: async ({ signal }) =>
      leadImportSchema.parse(
        (
          await http.get(`${CONTACTS_API}/leadImports/${encodeURIComponent(id ?? '')}`, {
            signal,
            silent: true,
          })
        ).data,
      ),
    enabled: Boolean(id),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && (data.status === 'running' || (data.status === 'queued' && !data.awaitingMapping))
        ? 1000
        : false;
    },
  });

export const useLeadImports = (enabled: boolean) =>
  useQuery({
    queryKey: contactKeys.leadImports(),
    queryFn: async ({ signal }) =>
      leadImportListSchema.parse(
        (await http.get(`${CONTACTS_API}/leadImports`, { params: { limit: 10 }, signal, silent: true })).data,
      ),
    enabled,
  });

export const useLeadRows = (id: string, outcome: LeadRowOutcome | null, skip: number, enabled: boolean) =>
  useQuery({
    queryKey: contactKeys.leadRows(id, outcome, skip),
    queryFn: async ({ signal }) =>
      leadRowsSchema.parse(
        (
          await http.get(`${CONTACTS_API}/leadImports/${encodeURIComponent(id)}/rows`, {
            params: { ...(outcome ? { outcome } : {}), skip, limit: 10 },
            signal,
            silent: true,
          })
        ).data,
      ),
    enabled,
    placeholderData: keepPreviousData,
  });

export function useStartLeadImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: StartLeadImportBody & { id: string }) => {
      const answer = (
        await http.post(`${CONTACTS_API}/leadImports/${encodeURIComponent(id)}/start`, body, { silent: true })
      ).data;
      return taskAcceptedSchema.extend({ import: leadImportSchema }).parse(answer);
    },
    onSuccess: (answer) => client.setQueryData(contactKeys.leadImport(answer.import.id), answer.import),
  });
}

export function useDiscardLeadImport() {
  return useMutation({
    mutationFn: async (id: string) =>
      http.post(`${CONTACTS_API}/leadImports/${encodeURIComponent(id)}/discard`, {}, { silent: true }),
  });
}

export function useLeadErrorSheet() {
  return useMutation({
    mutationFn: async ({ id, format }: { id: string; format: 'csv' | 'xlsx' }) =>
      taskAcceptedSchema.parse(
        (await http.post(`${CONTACTS_API}/leadImports/${encodeURIComponent(id)}/errorSheet`, { format }))
          .data,
      ),
  });
}

/** Invalidates the list after an import ends (its new contacts appear). */
export function useRefreshContacts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: contactKeys.lists() });
}
