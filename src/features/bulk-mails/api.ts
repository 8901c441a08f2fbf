// Every call of the Bulk Mails page: templates (/api/v1/mailTemplates), campaigns (/api/v1/campaigns)
// and the contact fields its audience builder filters on. One fetcher + hook per API operation, one
// query-key factory so a change refreshes exactly what it touches, every answer parsed with its contract.
//
// Reads that a page shows in place (with a retry) and writes whose refusal a form shows beside its
// fields are `silent`: the http client toasts nothing for them.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  type Audience,
  audienceCountSchema,
  type Campaign,
  type CampaignInput,
  type CampaignStatus,
  campaignListSchema,
  campaignResponseListSchema,
  campaignSchema,
  campaignUnsubscribeListSchema,
  recipientListSchema,
  sendAnswerSchema,
} from '../../../contracts/campaigns';
import {
  mailTemplateSchema,
  savedTemplateSchema,
  type TemplateInput,
  type TemplatePreviewInput,
  templateListSchema,
  templatePreviewSchema,
} from '../../../contracts/mail-templates';
import type { RecipientState } from '../../../contracts/marketing';
import type { QueryField } from '../../../contracts/query-tree';
import { queryKeys } from '../../lib/query-keys';
import { ApiError, http } from '../../services/http';

export const TEMPLATES_API = '/api/v1/mailTemplates';
export const CAMPAIGNS_API = '/api/v1/campaigns';
export const CONTACT_FIELDS_API = '/api/v1/campaigns/audienceFields';

export interface PageQuery {
  skip: number;
  limit: number;
  query: string;
}
export interface CampaignListQuery extends PageQuery {
  status: CampaignStatus | null;
}
export interface RecipientListQuery extends PageQuery {
  state: RecipientState | null;
}

const templateKeys = queryKeys<PageQuery>('bulk-mails', 'templates');
const campaignKeys = queryKeys<CampaignListQuery>('bulk-mails', 'campaigns');
export const bulkMailKeys = {
  all: ['bulk-mails'] as const,
  templates: () => templateKeys.all,
  templateList: templateKeys.list,
  template: templateKeys.detail,
  preview: (input: TemplatePreviewInput) => [...templateKeys.all, 'preview', input] as const,
  campaigns: () => campaignKeys.all,
  campaignList: campaignKeys.list,
  campaign: campaignKeys.detail,
  recipients: (id: string, query: RecipientListQuery) =>
    [...bulkMailKeys.campaign(id), 'recipients', query] as const,
  responses: (id: string, skip: number, limit: number) =>
    [...bulkMailKeys.campaign(id), 'responses', skip, limit] as const,
  unsubscribes: (id: string, skip: number, limit: number) =>
    [...bulkMailKeys.campaign(id), 'unsubscribes', skip, limit] as const,
  audienceCount: (audience: Audience) => [...bulkMailKeys.all, 'audience-count', audience] as const,
  contactFields: () => [...bulkMailKeys.all, 'contact-fields'] as const,
};

/** The field messages of a refused write (`fields` of the error body), keyed by field path. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const data = error instanceof ApiError ? error.data : null;
  const fields =
    data && typeof data === 'object' && 'fields' in data ? (data as { fields: unknown }).fields : null;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}

const idPath = (base: string, id: string, rest = '') => `${base}/${encodeURIComponent(id)}${rest}`;

// ── Templates ──────────────────────────────────────────────────────────────────────────────────────

export const useTemplateList = (query: PageQuery, enabled = true) =>
  useQuery({
    queryKey: bulkMailKeys.templateList(query),
    queryFn: async ({ signal }) =>
      templateListSchema.parse((await http.get(TEMPLATES_API, { params: query, signal, silent: true })).data),
    placeholderData: keepPreviousData,
    enabled,
  });

export const useTemplate = (id: string | null) =>
  useQuery({
    queryKey: bulkMailKeys.template(id ?? ''),
    queryFn: async ({ signal }) =>
      mailTemplateSchema.parse(
        (await http.get(idPath(TEMPLATES_API, id ?? ''), { signal, silent: true })).data,
      ),
    enabled: Boolean(id),
  });

/** The live preview: one version as edited, rendered for the sample contact. */
export const useTemplatePreview = (input: TemplatePreviewInput | null) =>
  useQuery({
    queryKey: bulkMailKeys.preview(input ?? { language: 'EN', subject: '', html: '' }),
    queryFn: async ({ signal }) =>
      templatePreviewSchema.parse(
        (await http.post(`${TEMPLATES_API}/preview`, input, { signal, silent: true })).data,
      ),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/**
 * After any write: templates and campaigns are read again together (campaign rows name their template;
 * the templates list counts the campaigns using each).
 */
function useBulkMailsChanged() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: bulkMailKeys.templates() }),
      client.invalidateQueries({ queryKey: bulkMailKeys.campaigns() }),
    ]);
}

/** A draft's save: a new one (no id) is posted, an existing one put at the version it was read. */
function saveAt<Input extends object, Saved>(api: string, schema: z.ZodType<Saved>) {
  return async ({ id, version, input }: { id: string | null; version: number; input: Input }) =>
    schema.parse(
      (id
        ? await http.put(idPath(api, id), { ...input, version }, { silent: true })
        : await http.post(api, input, { silent: true })
      ).data,
    );
}

const deleteAt = (api: string) => async (id: string) =>
  (await http.delete(idPath(api, id), { silent: true })).data;

export function useSaveTemplate() {
  return useMutation({
    mutationFn: saveAt<TemplateInput, z.infer<typeof savedTemplateSchema>>(
      TEMPLATES_API,
      savedTemplateSchema,
    ),
    onSuccess: useBulkMailsChanged(),
  });
}

export function useDeleteTemplate() {
  return useMutation({ mutationFn: deleteAt(TEMPLATES_API), onSuccess: useBulkMailsChanged() });
}

// ── Campaigns ──────────────────────────────────────────────────────────────────────────────────────

/** How often a list or a campaign is read again while something sends (the broker also nudges it). */
export const SENDING_REFRESH_MS = 2000;
const isLive = (status: CampaignStatus) => status === 'sending';

export const useCampaignList = (query: CampaignListQuery) =>
  useQuery({
    queryKey: bulkMailKeys.campaignList(query),
    queryFn: async ({ signal }) => {
      const { status, ...rest } = query;
      const params = status ? { ...rest, status } : rest;
      return campaignListSchema.parse((await http.get(CAMPAIGNS_API, { params, signal, silent: true })).data);
    },
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.result.some((campaign) => isLive(campaign.status)) ? SENDING_REFRESH_MS : false,
  });

export const useCampaign = (id: string | null) =>
  useQuery({
    queryKey: bulkMailKeys.campaign(id ?? ''),
    queryFn: async ({ signal }) =>
      campaignSchema.parse((await http.get(idPath(CAMPAIGNS_API, id ?? ''), { signal, silent: true })).data),
    enabled: Boolean(id),
    refetchInterval: (q) => (q.state.data && isLive(q.state.data.status) ? SENDING_REFRESH_MS : false),
  });

export const useRecipients = (id: string, query: RecipientListQuery, live: boolean) =>
  useQuery({
    queryKey: bulkMailKeys.recipients(id, query),
    queryFn: async ({ signal }) => {
      const { state, ...rest } = query;
      const params = state ? { ...rest, state } : rest;
      return recipientListSchema.parse(
        (await http.get(idPath(CAMPAIGNS_API, id, '/recipients'), { params, signal, silent: true })).data,
      );
    },
    placeholderData: keepPreviousData,
    refetchInterval: live ? SENDING_REFRESH_MS * 2 : false,
  });

/** One page of a campaign's `/responses` or `/unsubscribes`, the last page kept on screen while the next loads. */
const useCampaignPage = <T>(
  list: 'responses' | 'unsubscribes',
  schema: { parse: (data: unknown) => T },
  id: string,
  skip: number,
  limit: number,
) =>
  useQuery({
    queryKey: bulkMailKeys[list](id, skip, limit),
    queryFn: async ({ signal }) =>
      schema.parse(
        (
          await http.get(idPath(CAMPAIGNS_API, id, `/${list}`), {
            params: { skip, limit },
            signal,
            silent: true,
          })
        ).data,
      ),
    placeholderData: keepPreviousData,
  });

export const useCampaignResponses = (id: string, skip: number, limit: number) =>
  useCampaignPage('responses', campaignResponseListSchema, id, skip, limit);

export const useCampaignUnsubscribes = (id: string, skip: number, limit: number) =>
  useCampaignPage('unsubscribes', campaignUnsubscribeListSchema, id, skip, limit);

/** The live count of an audience while its filters change, with a few of the contacts. */
export const useAudienceCount = (audience: Audience | null) =>
  useQuery({
    queryKey: bulkMailKeys.audienceCount(
      audience ?? { query: { combinator: 'and', children: [] }, search: '' },
    ),
    queryFn: async ({ signal }) =>
      audienceCountSchema.parse(
        (await http.post(`${CAMPAIGNS_API}/audienceCount`, audience, { signal, silent: true })).data,
      ),
    enabled: audience !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

/** The contact fields an audience may filter on (countries, company types and templates included). */
export const useContactFields = () =>
  useQuery({
    queryKey: bulkMailKeys.contactFields(),
    queryFn: async ({ signal }): Promise<QueryField[]> => {
      const data = (await http.get(CONTACT_FIELDS_API, { signal, silent: true })).data as {
        result?: QueryField[];
        fields?: QueryField[];
      };
      return data.result ?? data.fields ?? [];
    },
    staleTime: 5 * 60_000,
  });

/** Creates a draft (no id) or saves one at the version it was read. */
export function useSaveCampaign() {
  return useMutation({
    mutationFn: saveAt<CampaignInput, Campaign>(CAMPAIGNS_API, campaignSchema),
    onSuccess: useBulkMailsChanged(),
  });
}

export function useDeleteCampaign() {
  return useMutation({ mutationFn: deleteAt(CAMPAIGNS_API), onSuccess: useBulkMailsChanged() });
}

export function useTestMail() {
  return useMutation({
    mutationFn: async (id: string) =>
      (await http.post(idPath(CAMPAIGNS_API, id, '/testMail'), {}, { silent: true })).data as {
        message?: string;
      },
  });
}

/**
 * Sends now (`scheduledAt: null`) or at a time. The answer's `taskStatus` goes to the task handler
 * through the http client (src/services/tasks.ts), which shows the "Bulk mail {status}" toast when
 * the broker says the job finished.
 */
export function useSendCampaign() {
  const changed = useBulkMailsChanged();
  return useMutation({
    mutationFn: async ({
      id,
      version,
      scheduledAt,
    }: {
      id: string;
      version: number;
      scheduledAt: string | null;
    }) =>
      sendAnswerSchema.parse(
        (await http.post(idPath(CAMPAIGNS_API, id, '/send'), { scheduledAt, version }, { silent: true }))
          .data,
      ),
    onSuccess: changed,
  });
}

/** Pause or resume a sending campaign. */
export function useCampaignAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'pause' | 'resume' }) => {
      const data = (await http.post(idPath(CAMPAIGNS_API, id, `/${action}`), {})).data as unknown;
      // The answer is the campaign (or `{ campaign, taskStatus }` for a resume that starts a job).
      const body =
        data && typeof data === 'object' && 'campaign' in data
          ? (data as { campaign: unknown }).campaign
          : data;
      const parsed = campaignSchema.safeParse(body);
      return parsed.success ? parsed.data : null;
    },
    onSuccess: (campaign) => {
      if (campaign) client.setQueryData(bulkMailKeys.campaign(campaign.id), campaign);
      return client.invalidateQueries({ queryKey: bulkMailKeys.campaigns() });
    },
  });
}
