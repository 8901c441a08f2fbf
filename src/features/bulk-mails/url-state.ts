// The Bulk Mails page's view in the address, so a reload or a shared link opens the same thing:
// the tab (`?tab=templates`), the list's filters and page, the campaign open in the detail drawer
// (`?campaign=<id>`), the campaign being composed (`?compose=new` or `?compose=<id>`) and the template
// being edited (`?template=new` or `?template=<id>`).
import { BULK_MAILS_ROUTE } from '../../../contracts/campaigns';
import { isUuid } from '../../../contracts/domain/ids';
import { type CampaignStatus, campaignStatuses } from '../../../contracts/marketing';

export const bulkMailTabs = ['campaigns', 'templates'] as const;
export type BulkMailTab = (typeof bulkMailTabs)[number];

export interface BulkMailsView {
  tab: BulkMailTab;
  /** The current tab's list: search text and page (from 1). */
  query: string;
  page: number;
  /** Campaigns by status; null for all. */
  status: CampaignStatus | null;
  /** The campaign whose detail is open. */
  campaignId: string | null;
  /** The campaign being composed: 'new' or a draft's id. */
  compose: string | null;
  /** The template being edited: 'new' or its id. */
  templateId: string | null;
}

export const defaultBulkMailsView: BulkMailsView = {
  tab: 'campaigns',
  query: '',
  page: 1,
  status: null,
  campaignId: null,
  compose: null,
  templateId: null,
};

const idOrNull = (value: string | null) => (value && isUuid(value) ? value.toLowerCase() : null);
const idOrNew = (value: string | null) => (value === 'new' ? 'new' : idOrNull(value));

export function parseBulkMailsView(search: string): BulkMailsView {
  const params = new URLSearchParams(search);
  const tab = params.get('tab');
  const status = params.get('status');
  const page = Number(params.get('page'));
  return {
    tab: bulkMailTabs.includes(tab as BulkMailTab) ? (tab as BulkMailTab) : 'campaigns',
    query: (params.get('q') ?? '').trim().slice(0, 100),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    status: campaignStatuses.includes(status as CampaignStatus) ? (status as CampaignStatus) : null,
    campaignId: idOrNull(params.get('campaign')),
    compose: idOrNew(params.get('compose')),
    templateId: idOrNew(params.get('template')),
  };
}

export function bulkMailsHref(view: BulkMailsView): string {
  const params = new URLSearchParams();
  if (view.tab !== 'campaigns') params.set('tab', view.tab);
  if (view.query) params.set('q', view.query);
  if (view.status && view.tab === 'campaigns') params.set('status', view.status);
  if (view.page > 1) params.set('page', String(view.page));
  if (view.campaignId) params.set('campaign', view.campaignId);
  if (view.compose) params.set('compose', view.compose);
  if (view.templateId) params.set('template', view.templateId);
  const text = params.toString();
  return `${BULK_MAILS_ROUTE}${text ? `?${text}` : ''}`;
}
