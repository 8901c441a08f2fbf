// Test fixtures of the queries pages: a query as the server answers it, and the page rendered with a
// router at a URL, a fresh data cache and the user's permissions. Only tests import this file.
import type { ReactNode } from 'react';
import { CONTACTS_ROUTE } from '../../../contracts/contacts';
import { QUERIES_ROUTE, QUERY_PAGE, type QueryDetail, type QueryListItem } from '../../../contracts/queries';
import type { RouteAction } from '../../../contracts/routes';
import { renderPageAt } from '../../services/testing/render-page';

export const QUERY_ID = '0b6f8c1e-8a8e-4d3b-9a0e-2f1f5b6f7a10';
export const CONTACT_ID = '7c0e1d2f-3a4b-4c5d-8e6f-1a2b3c4d5e6f';

export const listItem = (patch: Partial<QueryListItem> = {}): QueryListItem => ({
  id: QUERY_ID,
  number: 12,
  sellerId: null,
  sellerName: 'Chai & Co',
  customerName: 'Meera <script>',
  email: 'meera@example.com',
  subject: '<b>Where is my order?</b>',
  status: 'open',
  priority: 'high',
  channel: 'form',
  assigneeId: null,
  assigneeName: null,
  nextFollowUpAt: '2026-01-02T10:00:00.000Z',
  overdue: true,
  slaBreached: false,
  slaDueAt: null,
  lastActivityAt: '2026-01-01T10:00:00.000Z',
  createdAt: '2026-01-01T09:00:00.000Z',
  ...patch,
});

const clock = {
  targetMinutes: 60,
  state: 'running' as const,
  dueAt: '2099-01-01T10:00:00.000Z',
  usedMinutes: 5,
};

export const detail = (patch: Partial<QueryDetail> = {}): QueryDetail => ({
  ...listItem(),
  phone: '',
  phoneCallable: false,
  message: 'Ordered on <Monday>, nothing yet.',
  contactId: CONTACT_ID,
  customerId: null,
  productId: null,
  productName: null,
  followUpNote: '',
  snoozedUntil: null,
  snoozeReopenOnReply: true,
  firstResponseAt: null,
  resolvedAt: null,
  sla: { firstResponse: clock, resolution: { ...clock, state: 'breached', dueAt: null } },
  nextStatuses: ['waiting', 'resolved', 'closed'],
  events: {
    result: [
      {
        id: 'e-1',
        seq: 1,
        kind: 'message_in',
        actorName: 'Meera',
        body: 'Ordered on <Monday>, nothing yet.',
        truncated: false,
        outcome: '',
        data: {},
        createdAt: '2026-01-01T09:00:00.000Z',
      },
    ],
    nextBefore: null,
  },
  ...patch,
});

export function renderAt(
  path: string,
  page: ReactNode,
  options: { actions?: RouteAction[]; seller?: boolean; contacts?: boolean } = {},
) {
  const { actions = ['view', 'edit'], seller = false, contacts = true } = options;
  return renderPageAt(path, page, {
    seller,
    permissions: {
      [QUERIES_ROUTE]: actions,
      [QUERY_PAGE]: actions,
      ...(contacts ? { [CONTACTS_ROUTE]: ['view'] } : {}),
    },
  });
}
