import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QUERIES_API } from '../../../contracts/queries';
import type { FakeReply, RecordedRequest } from '../../services/testing/fake-adapter';
import { installFakeHttp } from '../../services/testing/fake-http';
import QueryPage from './QueryPage';
import { detail, QUERY_ID, renderAt } from './testing';

const TEMPLATE = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
let requests: RecordedRequest[];
let uninstall: () => void;
let refuseStatus = false;
const Q = `${QUERIES_API}/${QUERY_ID}`;

function reply(request: RecordedRequest): FakeReply {
  const post = request.method.toLowerCase() === 'post';
  if (request.url === Q) return { status: 200, data: detail() };
  if (post && request.url === `${Q}/status` && refuseStatus)
    return {
      status: 409,
      data: { message: 'A resolved query cannot move to waiting for customer.', code: 'BAD_MOVE' },
    };
  if (post && request.url === `${Q}/reply`)
    return {
      status: 200,
      data: detail({
        status: 'waiting',
        events: {
          result: [
            {
              id: 'e-2',
              seq: 2,
              kind: 'message_out',
              actorName: 'Asha',
              body: 'Hello Meera',
              truncated: false,
              outcome: '',
              data: { subject: 'Your order [Q-12]' },
              createdAt: '2026-01-01T11:00:00.000Z',
            },
            ...detail().events.result,
          ],
          nextBefore: null,
        },
      }),
    };
  if (post) return { status: 200, data: detail() };
  if (request.url === `${Q}/contactHistory`)
    return {
      status: 200,
      data: {
        result: [
          {
            id: 'h-1',
            at: '2026-01-01T09:00:00.000Z',
            actor: { id: null, name: '' },
            action: 'help_chat',
            changes: [],
            note: null,
            campaignId: null,
            link: null,
          },
        ],
        count: 1,
      },
    };
  if (request.url === `${QUERIES_API}/method/replyTemplates`)
    return {
      status: 200,
      data: {
        result: [
          {
            id: TEMPLATE,
            name: 'Order update',
            description: '',
            defaultLanguage: 'EN',
            languages: ['EN'],
            campaigns: 0,
            createdByName: 'Asha',
            createdAt: '2026-01-01T10:00:00.000Z',
            updatedAt: '2026-01-01T10:00:00.000Z',
          },
        ],
        count: 1,
      },
    };
  return { status: 200, data: { data: { result: [], count: 0 }, result: [] } };
}

beforeEach(() => {
  refuseStatus = false;
  ({ requests, uninstall } = installFakeHttp(reply));
});

afterEach(() => {
  cleanup();
  uninstall();
});

const posted = (path: string) =>
  requests.find((request) => request.method.toLowerCase() === 'post' && request.url === path)?.body;

describe('QueryPage', () => {
  it('shows the query, its thread and SLA clocks, user text as text, and the contact timeline', async () => {
    renderAt(`/queries/query?id=${QUERY_ID}`, <QueryPage />);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Q-12: <b>Where is my order?</b>' }),
    ).toBeTruthy();
    expect(screen.getByTestId('query-message').textContent).toBe('Ordered on <Monday>, nothing yet.');
    const thread = screen.getByRole('list', { name: 'Thread' });
    expect(within(thread).getByText('Customer wrote')).toBeTruthy();
    expect(screen.getByText('Breached')).toBeTruthy();
    expect(screen.getByText(/^Due in/)).toBeTruthy();
    expect(await screen.findByText(/Help chat/)).toBeTruthy();
    // No voice service in this tab: no call button.
    expect(screen.queryByRole('button', { name: /^Call/ })).toBeNull();
  });

  it('says so when no query is named', async () => {
    renderAt('/queries/query', <QueryPage />);
    expect(await screen.findByText('No query chosen')).toBeTruthy();
  });

  it('moves the status and shows the server’s refusal where the user acted', async () => {
    refuseStatus = true;
    renderAt(`/queries/query?id=${QUERY_ID}`, <QueryPage />);
    const moves = await screen.findByRole('group', { name: 'Move to' });
    await userEvent.click(within(moves).getByRole('button', { name: 'Waiting for customer' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      expect.stringContaining('cannot move to waiting'),
    );
    expect(posted(`${Q}/status`)).toEqual({ status: 'waiting' });
  });

  it('logs a call with its outcome and next follow-up (addConnectData)', async () => {
    renderAt(`/queries/query?id=${QUERY_ID}`, <QueryPage />);
    await userEvent.click(await screen.findByRole('button', { name: /Add connect data/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add connect data' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'What was said' }), 'Courier is late');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Outcome' }), 'Call back Friday');
    const when = dialog.querySelector('input[type="datetime-local"]') as HTMLInputElement;
    await userEvent.type(when, '2099-03-06T10:30');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Follow-up note' }), 'Check tracking');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to the thread' }));
    await waitFor(() =>
      expect(posted(`${QUERIES_API}/method/addConnectData/${QUERY_ID}`)).toEqual({
        kind: 'call',
        direction: 'outgoing',
        body: 'Courier is late',
        outcome: 'Call back Friday',
        nextFollowUpAt: new Date('2099-03-06T10:30').toISOString(),
        followUpNote: 'Check tracking',
      }),
    );
  });

  it('replies from a template and shows the reply in the thread', async () => {
    renderAt(`/queries/query?id=${QUERY_ID}`, <QueryPage />);
    await userEvent.click(await screen.findByRole('button', { name: /Reply/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reply' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reply' }));
    expect(await within(dialog).findByText('Choose a template.')).toBeTruthy();
    await within(dialog).findByRole('option', { name: 'Order update' });
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: /Template/ }), TEMPLATE);
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /Personal note/ }),
      'Sorry for the wait',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send reply' }));
    await waitFor(() =>
      expect(posted(`${Q}/reply`)).toEqual({
        templateId: TEMPLATE,
        language: 'EN',
        note: 'Sorry for the wait',
      }),
    );
    const thread = screen.getByRole('list', { name: 'Thread' });
    expect(await within(thread).findByText('Hello Meera')).toBeTruthy();
    expect(within(thread).getByText(/Mail: Your order \[Q-12\]/)).toBeTruthy();
  });

  it('offers no changes without edit', async () => {
    renderAt(`/queries/query?id=${QUERY_ID}`, <QueryPage />, { actions: ['view'] });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: /Reply/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Add connect data/ })).toBeNull();
  });
});
