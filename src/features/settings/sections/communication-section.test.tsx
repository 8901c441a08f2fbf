// Settings → Communication in jsdom against a fake API: the SMTP group follows the transport and the
// environment, "Send a test mail" sends the draft and shows the server's answer, office hours gain and
// lose spans.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FieldState,
  SECRET_SET,
  type SectionState,
  settingsDefaults,
} from '../../../../contracts/settings';
import { configureHttp, http } from '../../../services/http';
import { createFakeAdapter, type RecordedRequest } from '../../../services/testing/fake-adapter';
import { system } from '../../../ui/theme';
import CommunicationSection from './CommunicationSection';

const SMTP = ['transport', 'smtpHost', 'smtpPort', 'smtpSecure', 'smtpUser', 'smtpPassword'];

function communication(options: { environment?: boolean; set?: Record<string, unknown> } = {}): SectionState {
  const values = { ...settingsDefaults('IN').communication, ...options.set } as Record<string, unknown>;
  const fields: Record<string, FieldState> = {};
  for (const [field, value] of Object.entries(values)) {
    fields[field] = {
      value: field === 'smtpPassword' && value ? SECRET_SET : value,
      source: 'default',
      editable: true,
      ...(options.environment && SMTP.includes(field) ? { fromEnvironment: true } : {}),
    };
  }
  return {
    section: 'communication',
    scope: { type: 'marketplace', sellerId: null },
    version: 0,
    updatedAt: null,
    updatedBy: null,
    fields,
  };
}

let state: SectionState;
let requests: RecordedRequest[];
let unconfigure: () => void;
const originalAdapter = http.defaults.adapter;

beforeEach(() => {
  const fake = createFakeAdapter((request) => {
    if (request.method === 'GET' && request.url === '/api/v1/settings/communication')
      return { status: 200, data: state };
    if (request.method === 'POST' && request.url === '/api/v1/settings/communication/test-mail')
      return {
        status: 200,
        data: { ok: false, transport: 'smtp', message: 'EAUTH 535 5.7.8 Authentication failed' },
      };
    return { status: 404, data: { message: 'not here' } };
  });
  requests = fake.requests;
  http.defaults.adapter = fake.adapter;
  unconfigure = configureHttp({ getAccessToken: () => 'token-1', notifyError: () => {}, onTask: () => {} });
});

afterEach(() => {
  cleanup();
  unconfigure();
  http.defaults.adapter = originalAdapter;
});

function renderSection() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Suspense fallback={null}>
          <CommunicationSection />
        </Suspense>
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

describe('CommunicationSection', () => {
  it('enables the SMTP fields with the SMTP transport and tests the draft, showing the answer', async () => {
    state = communication({ set: { smtpPassword: 'stored' } });
    const user = userEvent.setup();
    renderSection();
    expect(await screen.findByLabelText(/^SMTP host/)).toBeDisabled();
    await user.selectOptions(screen.getByLabelText(/^Send mail/), 'smtp');
    const host = screen.getByLabelText(/^SMTP host/);
    expect(host).toBeEnabled();
    await user.type(host, 'smtp.example.com');
    await user.click(screen.getByRole('button', { name: /Send a test mail/ }));
    expect(await screen.findByText('EAUTH 535 5.7.8 Authentication failed')).toBeInTheDocument();
    const sent = requests.find((request) => request.url?.endsWith('/test-mail'));
    expect(sent?.body).toMatchObject({
      transport: 'smtp',
      smtpHost: 'smtp.example.com',
      smtpPassword: SECRET_SET,
    });
  });

  it('shows SMTP set in the environment as read-only', async () => {
    state = communication({ environment: true, set: { transport: 'smtp' } });
    renderSection();
    expect(await screen.findByText(/set in the server's environment \(SMTP_URL\)/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^SMTP host/)).toBeDisabled();
    expect(screen.getByLabelText(/^Send mail/)).toBeDisabled();
  });

  it('adds and removes office hours and sets a channel per role', async () => {
    state = communication();
    const user = userEvent.setup();
    renderSection();
    await user.click(await screen.findByRole('button', { name: 'Add hours on Saturday' }));
    expect(screen.getByLabelText('Saturday span 1 from')).toHaveValue('09:00');
    await user.click(screen.getByRole('button', { name: 'Remove Saturday span 1' }));
    expect(screen.queryByLabelText('Saturday span 1 from')).toBeNull();
    const staffTasks = screen.getByLabelText('Tasks (exports, imports) for Staff');
    await user.selectOptions(staffTasks, 'mail');
    expect(staffTasks).toHaveValue('mail');
  });
});
