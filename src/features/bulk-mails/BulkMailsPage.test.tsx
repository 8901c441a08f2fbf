// The Bulk Mails page in jsdom against a fake API: what the templates editor checks before saving and
// where a refusal shows, the live preview, the composer's audience count and send confirmation, the
// campaigns list, and pause / resume by status and permission.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BULK_MAILS_ROUTE, type Campaign, type CampaignSummary } from '../../../contracts/campaigns';
import type { MailTemplate } from '../../../contracts/mail-templates';
import { type CampaignStatus, emptyRecipientCounts } from '../../../contracts/marketing';
import type { RouteAction } from '../../../contracts/routes';
import { configureHttp, http } from '../../services/http';
import { sessionKeys } from '../../services/session-queries';
import { makeCurrentUser } from '../../services/testing/current-user';
import { createFakeAdapter, type FakeReply, type RecordedRequest } from '../../services/testing/fake-adapter';
import { system } from '../../ui/theme';
import BulkMailsPage from './BulkMailsPage';

const TEMPLATE_ID = '11111111-1111-4111-8111-111111111111';
const CAMPAIGN_ID = '22222222-2222-4222-8222-222222222222';
const NEW_CAMPAIGN_ID = '33333333-3333-4333-8333-333333333333';
const AT = '2026-01-01T10:00:00.000Z';

const template: MailTemplate = {
  id: TEMPLATE_ID,
  name: 'Monthly newsletter',
  description: 'News',
  defaultLanguage: 'EN',
  version: 3,
  variants: [
    { language: 'EN', subject: 'Hi {{firstName}}', html: '<p>Dear {{company}}</p>', text: '', variables: [] },
    {
      language: 'FR',
      subject: 'Salut {{firstName}}',
      html: '<p>Cher {{company}}</p>',
      text: '',
      variables: [],
    },
  ],
  createdByName: 'Sam',
  createdAt: AT,
  updatedAt: AT,
};

function campaignOf(status: CampaignStatus, patch: Partial<Campaign> = {}): Campaign {
  const sending = status !== 'draft' && status !== 'scheduled';
  return {
    id: CAMPAIGN_ID,
    name: 'Spring offer',
    status,
    templateId: TEMPLATE_ID,
    templateName: 'Monthly newsletter',
    total: sending ? 1000 : 0,
    counts: sending
      ? { ...emptyRecipientCounts(), queued: 560, sent: 400, deferred: 30, failed: 10 }
      : emptyRecipientCounts(),
    responses: 12,
    unsubscribes: 3,
    scheduledAt: null,
    startedAt: sending ? AT : null,
    finishedAt: null,
    createdByName: 'Asha',
    createdAt: AT,
    updatedAt: AT,
    version: 2,
    fallbackLanguage: 'EN',
    audience: {
      query: { combinator: 'and', children: [{ field: 'country', op: 'anyOf', value: ['IN'] }] },
      search: '',
    },
    audienceViewId: null,
    responseOptions: ['Yes', 'No'],
    responseLabels: {},
    ratePerSecond: 50,
    error: null,
    responsesByAnswer: [{ response: 'Yes', count: 9 }],
    byLanguage: [],
    ...patch,
  };
}

const summaryOf = (campaign: Campaign): CampaignSummary => {
  const {
    version: _v,
    fallbackLanguage: _f,
    audience: _a,
    audienceViewId: _i,
    responseOptions: _r,
    responseLabels: _w,
    ratePerSecond: _p,
    error: _e,
    responsesByAnswer: _b,
    byLanguage: _l,
    ...summary
  } = campaign;
  return summary;
};

const fields = [
  {
    key: 'country',
    label: 'Country',
    kind: 'enum',
    group: 'Contact',
    options: [
      { value: 'IN', label: 'India' },
      { value: 'FR', label: 'France' },
    ],
  },
  { key: 'companyType', label: 'Company type', kind: 'enum', group: 'Contact', options: [] },
  { key: 'language', label: 'Template language', kind: 'enum', group: 'Contact', options: [] },
  { key: 'receivedTemplate', label: 'Received template', kind: 'enum', group: 'Contact', options: [] },
];

function bulkServer() {
  const state = {
    campaign: campaignOf('sending'),
    saveTemplate: null as FakeReply | null,
    sent: null as unknown,
    /** How many templates the list says there are (the composer shows the first 100 and a search). */
    templateCount: 1,
  };
  const reply = (request: RecordedRequest): FakeReply => {
    const { method, url } = request;
    if (url === '/api/v1/mailTemplates' && method === 'GET') {
      const { variants: _v, version: _n, ...rest } = template;
      const summary = { ...rest, languages: ['EN', 'FR'], campaigns: 2 };
      const query = String(request.params.query ?? '');
      if (state.templateCount === 1) return { status: 200, data: { result: [summary], count: 1 } };
      // Many templates: "Template 1" … "Template N" plus the newsletter, searched by name.
      const named = [
        summary,
        ...Array.from({ length: state.templateCount - 1 }, (_, index) => ({
          ...summary,
          id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
          name: `Template ${index + 1}`,
        })),
      ].filter((option) => option.name.toLowerCase().includes(query.toLowerCase()));
      const limit = Number(request.params.limit ?? 20);
      return { status: 200, data: { result: named.slice(0, limit), count: named.length } };
    }
    if (url === `/api/v1/mailTemplates/${TEMPLATE_ID}` && method === 'GET')
      return { status: 200, data: template };
    if (url === '/api/v1/mailTemplates/preview') {
      const body = request.body as { subject: string; html: string };
      return {
        status: 200,
        data: {
          subject: body.subject.replace('{{firstName}}', 'Asha'),
          html: `${body.html.replace('{{company}}', 'Rao Textiles')}<script>alert(1)</script>`,
          text: 'Dear Rao Textiles',
          warnings: [],
        },
      };
    }
    if (url.startsWith('/api/v1/mailTemplates') && (method === 'PUT' || method === 'POST'))
      return state.saveTemplate ?? { status: 200, data: { ...template, warnings: [] } };
    if (url === '/api/v1/campaigns/audienceFields') return { status: 200, data: { result: fields } };
    if (url === '/api/v1/savedViews/') return { status: 200, data: { result: [] } };
    if (url === '/api/v1/campaigns/audienceCount') {
      return {
        status: 200,
        data: {
          matching: 1290,
          mailable: 1234,
          sample: [{ id: 'c1', name: '<b>Priya</b>', email: 'priya@example.com', language: 'HI' }],
        },
      };
    }
    if (url === '/api/v1/campaigns' && method === 'GET')
      return { status: 200, data: { result: [summaryOf(state.campaign)], count: 1 } };
    if (url === '/api/v1/campaigns' && method === 'POST') {
      return {
        status: 201,
        data: campaignOf('draft', { id: NEW_CAMPAIGN_ID, version: 1, name: 'Retailers' }),
      };
    }
    if (url === `/api/v1/campaigns/${NEW_CAMPAIGN_ID}/send`) {
      state.sent = request.body;
      return {
        status: 200,
        data: {
          campaign: campaignOf('sending', { id: NEW_CAMPAIGN_ID, name: 'Retailers' }),
          taskStatus: { taskId: 't-1', taskName: 'Bulk mail', status: 'Queued' },
        },
      };
    }
    if (url === `/api/v1/campaigns/${CAMPAIGN_ID}/send`) {
      state.sent = request.body;
      state.campaign = campaignOf('sending');
      return {
        status: 200,
        data: {
          campaign: state.campaign,
          taskStatus: { taskId: 't-2', taskName: 'Bulk mail', status: 'Queued' },
        },
      };
    }
    if (url === `/api/v1/campaigns/${CAMPAIGN_ID}` && method === 'GET')
      return { status: 200, data: state.campaign };
    if (url === `/api/v1/campaigns/${CAMPAIGN_ID}/pause`) {
      state.campaign = campaignOf('paused');
      return { status: 200, data: { campaign: state.campaign } };
    }
    if (url === `/api/v1/campaigns/${CAMPAIGN_ID}/resume`) {
      state.campaign = campaignOf('sending');
      return { status: 200, data: { campaign: state.campaign, taskStatus: null } };
    }
    if (url.endsWith('/recipients') || url.endsWith('/responses') || url.endsWith('/unsubscribes'))
      return { status: 200, data: { result: [], count: 0 } };
    return { status: 404, data: { message: `No route ${method} ${url}`, code: 'NOT_FOUND' } };
  };
  return { state, reply };
}

let server: ReturnType<typeof bulkServer>;
let requests: RecordedRequest[];
let tasks: unknown[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  server = bulkServer();
  const fake = createFakeAdapter((request) => server.reply(request));
  requests = fake.requests;
  tasks = [];
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({
    getAccessToken: () => 'token-1',
    notifyError: () => {},
    onTask: (body) => tasks.push(body),
  });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderPage(search: string, actions: RouteAction[] = ['view', 'create', 'edit', 'delete']) {
  const memory = memoryLocation({ path: `${BULK_MAILS_ROUTE}${search}`, record: true });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const key of [sessionKeys.currentUser(), sessionKeys.sidebar()])
    client.setQueryDefaults(key, { staleTime: Number.POSITIVE_INFINITY });
  client.setQueryData(sessionKeys.currentUser(), makeCurrentUser());
  client.setQueryData(sessionKeys.sidebar(), {
    menu: [],
    permissions: { [BULK_MAILS_ROUTE]: actions, '/marketing/contacts': ['view'] },
    usingDefaultPermissions: false,
  });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Router hook={memory.hook} searchHook={memory.searchHook}>
          <BulkMailsPage />
        </Router>
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return memory;
}

const writes = (path: string) =>
  requests.filter((request) => request.method !== 'GET' && request.url.startsWith(path));

describe('the template editor', () => {
  it('shows the live preview: the subject, the HTML in a sandboxed frame and the plain text', async () => {
    renderPage(`?tab=templates&template=${TEMPLATE_ID}`);
    expect(await screen.findByTestId('preview-subject', {}, { timeout: 3000 })).toHaveTextContent('Hi Asha');
    const frame = screen.getByTitle('Mail preview');
    expect(frame).toHaveAttribute('sandbox', '');
    // The server's HTML goes into the frame's own document, never into the page.
    expect(frame.getAttribute('srcdoc')).toContain('Dear Rao Textiles');
    expect(document.body.innerHTML).not.toContain('<script>alert(1)</script>');
    await userEvent.click(screen.getByRole('tab', { name: 'Plain text' }));
    expect(await screen.findByTestId('preview-text')).toHaveTextContent('Dear Rao Textiles');
  });

  it('refuses an unknown variable and an empty name before saving, on their fields', async () => {
    renderPage(`?tab=templates&template=${TEMPLATE_ID}`);
    const subject = await screen.findByLabelText(/Subject \(English\)/, {}, { timeout: 3000 });
    await userEvent.clear(subject);
    await userEvent.type(subject, 'Hello {{{{nickname}}');
    const name = screen.getByLabelText(/^Name/);
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    expect(
      await screen.findByText(/^Unknown variable \{\{nickname\}\}\. Use one of \{\{firstName\}\}/),
    ).toBeInTheDocument();
    expect(screen.getByText('Name the template')).toBeInTheDocument();
    expect(screen.getByText('Some fields need attention.')).toBeInTheDocument();
    expect(writes('/api/v1/mailTemplates').filter((request) => request.method === 'PUT')).toHaveLength(0);
  });

  it('shows the server’s refusal on the field it names, in its language’s tab', async () => {
    server.state.saveTemplate = {
      status: 400,
      data: {
        message: 'Unknown variable {{x}} in the French body. Use one of the listed variables.',
        code: 'UNKNOWN_VARIABLE',
      },
    };
    renderPage(`?tab=templates&template=${TEMPLATE_ID}`);
    await screen.findByLabelText(/Subject \(English\)/, {}, { timeout: 3000 });
    await userEvent.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() =>
      expect(writes('/api/v1/mailTemplates').some((request) => request.method === 'PUT')).toBe(true),
    );
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.url).toBe(`/api/v1/mailTemplates/${TEMPLATE_ID}`);
    expect(put?.body).toMatchObject({ version: 3, defaultLanguage: 'EN', name: 'Monthly newsletter' });
    // The French tab opens with the message under its body.
    expect(await screen.findByLabelText(/Subject \(French\)/)).toBeVisible();
    expect(screen.getAllByText(/in the French body/).length).toBeGreaterThan(0);
  });
});

describe('composing a campaign', () => {
  it('shows the audience count, then confirms the send with the number of contacts it will mail', async () => {
    const memory = renderPage('?compose=new');
    expect(await screen.findByTestId('audience-mailable', {}, { timeout: 3000 })).toHaveTextContent('1,234');
    expect(screen.getByTestId('audience-matching')).toHaveTextContent(
      '1,290 matching · 56 unsubscribed or bounced',
    );
    // A contact's name is text, not markup.
    expect(screen.getByText('<b>Priya</b>')).toBeInTheDocument();

    // Nothing is saved or sent before the form is complete.
    await userEvent.click(screen.getByRole('button', { name: /Send now/ }));
    expect(await screen.findByText('Name the campaign')).toBeInTheDocument();
    expect(screen.getByText('Choose a template', { selector: 'span' })).toBeInTheDocument();
    expect(writes('/api/v1/campaigns').filter((request) => request.url === '/api/v1/campaigns')).toHaveLength(
      0,
    );

    await userEvent.type(screen.getByLabelText(/Campaign name/), 'Retailers');
    const templateSelect = screen.getByRole('combobox', { name: /^Template\b(?! language)/ });
    await waitFor(() => expect(within(templateSelect).getAllByRole('option')).toHaveLength(2));
    await userEvent.selectOptions(templateSelect, TEMPLATE_ID);
    await userEvent.click(screen.getByRole('button', { name: /Send now/ }));

    const dialog = await screen.findByRole('alertdialog');
    expect(await within(dialog).findByText(/^1,234 contacts will be mailed now/)).toBeInTheDocument();
    const create = requests.find(
      (request) => request.method === 'POST' && request.url === '/api/v1/campaigns',
    );
    expect(create?.body).toMatchObject({
      name: 'Retailers',
      templateId: TEMPLATE_ID,
      fallbackLanguage: 'EN',
    });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Send to 1,234 contacts' }));
    await waitFor(() => expect(server.state.sent).toEqual({ scheduledAt: null, version: 1 }));
    // The task goes to the task handler (its toast comes when the job finishes); the campaign opens.
    await waitFor(() => expect(tasks).toHaveLength(1));
    await waitFor(() =>
      expect(memory.history?.at(-1)).toBe(`${BULK_MAILS_ROUTE}?campaign=${NEW_CAMPAIGN_ID}`),
    );
  });

  it('searches the templates when there are more than it lists, and keeps the chosen one listed', async () => {
    server.state.templateCount = 250;
    renderPage('?compose=new');
    const templateSelect = await screen.findByRole('combobox', { name: /^Template\b(?! language)/ });
    await waitFor(() => expect(within(templateSelect).getAllByRole('option')).toHaveLength(101));
    expect(screen.getByText('Showing 100 of 250 templates: search to find others.')).toBeInTheDocument();
    expect(within(templateSelect).queryByRole('option', { name: /Template 249/ })).toBeNull();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'Template 249');
    await waitFor(() =>
      expect(within(templateSelect).getByRole('option', { name: /Template 249/ })).toBeInTheDocument(),
    );
    expect(requests.some((request) => request.params.query === 'Template 249')).toBe(true);

    // The chosen template stays in the list when another search no longer matches it.
    await userEvent.selectOptions(
      templateSelect,
      within(templateSelect).getByRole('option', { name: /Template 249/ }),
    );
    await userEvent.clear(screen.getByRole('searchbox', { name: 'Search templates' }));
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search templates' }), 'newsletter');
    await waitFor(() =>
      expect(within(templateSelect).getByRole('option', { name: /Monthly newsletter/ })).toBeInTheDocument(),
    );
    expect(within(templateSelect).getByRole('option', { name: /Template 249/ })).toBeInTheDocument();
    expect(templateSelect).toHaveDisplayValue(/Template 249/);
  });

  it('writes the country picker into the audience query', async () => {
    renderPage('?compose=new');
    await screen.findByTestId('audience-mailable', {}, { timeout: 3000 });
    const country = await screen.findByRole('combobox', { name: 'Country' });
    await waitFor(() => expect(country).not.toBeDisabled());
    await userEvent.click(country);
    await userEvent.click(await screen.findByRole('option', { name: 'India' }));
    await waitFor(() =>
      expect(
        requests.some(
          (request) =>
            request.url === '/api/v1/campaigns/audienceCount' &&
            JSON.stringify(request.body) ===
              JSON.stringify({
                query: { combinator: 'and', children: [{ field: 'country', op: 'anyOf', value: ['IN'] }] },
                search: '',
              }),
        ),
      ).toBe(true),
    );
    expect(screen.getByRole('list', { name: 'Chosen country' })).toHaveTextContent('India');
  });
});

describe('the campaigns list and a campaign', () => {
  it('lists a sending campaign with its progress and counts, and filters by status', async () => {
    const memory = renderPage('');
    const table = await screen.findByRole('table', { name: 'Campaigns' });
    const row = within(table).getByTestId('campaign-row');
    expect(within(row).getByTestId('campaign-status')).toHaveTextContent('Sending');
    // Done: sent 400 + failed 10 of 1,000; 30 wait for a retry.
    expect(within(row).getByTestId('progress-text')).toHaveTextContent('410 of 1,000 · 41%');
    expect(within(row).getByText('30 waiting for a retry')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'paused');
    await waitFor(() => expect(memory.history?.at(-1)).toBe(`${BULK_MAILS_ROUTE}?status=paused`));
    await waitFor(() =>
      expect(requests.filter((request) => request.url === '/api/v1/campaigns').at(-1)?.params).toMatchObject({
        status: 'paused',
      }),
    );
  });

  it('pauses a sending campaign and resumes a paused one', async () => {
    renderPage(`?campaign=${CAMPAIGN_ID}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    expect(screen.getByText(/Paused: 590 recipients/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(
      writes(`/api/v1/campaigns/${CAMPAIGN_ID}`).map((request) => request.url.split('/').at(-1)),
    ).toEqual(['pause', 'resume']);
    // Answers by option, with the numbers beside the chart (an option nobody chose counts 0).
    const answers = screen.getByRole('table', { name: 'Responses by answer' });
    expect(
      within(answers)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['Yes9', 'No0']);
  });

  it('a draft says what will be sent and is sent from its drawer, without opening Edit', async () => {
    server.state.campaign = campaignOf('draft');
    renderPage(`?campaign=${CAMPAIGN_ID}`);
    expect(await screen.findByRole('heading', { name: 'What will be sent' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'What was sent' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /Send now/ }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Send to 1,234 contacts' }));
    await waitFor(() => expect(server.state.sent).toEqual({ scheduledAt: null, version: 2 }));
    await waitFor(() => expect(tasks).toHaveLength(1));
    // Sending now: what was sent, and pause instead of send.
    expect(await screen.findByRole('heading', { name: 'What was sent' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send now/ })).not.toBeInTheDocument();
  });

  it('someone who may only look cannot send a draft', async () => {
    server.state.campaign = campaignOf('draft');
    renderPage(`?campaign=${CAMPAIGN_ID}`, ['view']);
    expect(await screen.findByRole('heading', { name: 'What will be sent' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Send now/ })).not.toBeInTheDocument();
  });

  it('offers neither pause nor resume to someone who may not edit, nor on a finished campaign', async () => {
    renderPage(`?campaign=${CAMPAIGN_ID}`, ['view']);
    expect(await screen.findByTestId('campaign-status')).toHaveTextContent('Sending');
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    cleanup();
    server.state.campaign = campaignOf('sent');
    renderPage(`?campaign=${CAMPAIGN_ID}`);
    expect(
      await screen.findByText('Sent', { selector: '[data-testid="campaign-status"]' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument();
    // The audience in words, once the contact fields name the values.
    await waitFor(() =>
      expect(screen.getByTestId('summary-audience')).toHaveTextContent('Country is any of India'),
    );
  });
});
