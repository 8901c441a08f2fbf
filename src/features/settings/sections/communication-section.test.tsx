// Settings → Communication in jsdom against a fake API: the SMTP group follows the transport and the
// environment, "Send a test mail" sends the draft and shows the server's answer, office hours gain and
// lose spans.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SECRET_SET, type SectionState } from '../../../../contracts/settings';
import CommunicationSection from './CommunicationSection';
import { fakeApiForEachTest, renderSection, sectionStateOf } from './section-testing';

const SMTP = ['transport', 'smtpHost', 'smtpPort', 'smtpSecure', 'smtpUser', 'smtpPassword'];

const communication = (
  options: { environment?: boolean; set?: Record<string, unknown> } = {},
): SectionState =>
  sectionStateOf('communication', 'marketplace', {
    set: options.set,
    field: (field, state) => ({
      ...state,
      value: field === 'smtpPassword' && state.value ? SECRET_SET : state.value,
      ...(options.environment && SMTP.includes(field) ? { fromEnvironment: true } : {}),
    }),
  });

let state: SectionState;
const api = fakeApiForEachTest((request) => {
  if (request.method === 'GET' && request.url === '/api/v1/settings/communication')
    return { status: 200, data: state };
  if (request.method === 'POST' && request.url === '/api/v1/settings/communication/test-mail')
    return {
      status: 200,
      data: { ok: false, transport: 'smtp', message: 'EAUTH 535 5.7.8 Authentication failed' },
    };
  return { status: 404, data: { message: 'not here' } };
});

describe('CommunicationSection', () => {
  it('enables the SMTP fields with the SMTP transport and tests the draft, showing the answer', async () => {
    state = communication({ set: { smtpPassword: 'stored' } });
    const user = userEvent.setup();
    renderSection(<CommunicationSection />);
    expect(await screen.findByLabelText(/^SMTP host/)).toBeDisabled();
    await user.selectOptions(screen.getByLabelText(/^Send mail/), 'smtp');
    const host = screen.getByLabelText(/^SMTP host/);
    expect(host).toBeEnabled();
    // One paste, not 16 keystrokes: each keystroke renders the whole section (office hours included),
    // which made this test take most of its time budget on a loaded machine.
    await user.click(host);
    await user.paste('smtp.example.com');
    await user.click(screen.getByRole('button', { name: /Send a test mail/ }));
    expect(await screen.findByText('EAUTH 535 5.7.8 Authentication failed')).toBeInTheDocument();
    const sent = api.requests.find((request) => request.url?.endsWith('/test-mail'));
    expect(sent?.body).toMatchObject({
      transport: 'smtp',
      smtpHost: 'smtp.example.com',
      smtpPassword: SECRET_SET,
    });
  });

  it('shows SMTP set in the environment as read-only', async () => {
    state = communication({ environment: true, set: { transport: 'smtp' } });
    renderSection(<CommunicationSection />);
    expect(await screen.findByText(/set in the server's environment \(SMTP_URL\)/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^SMTP host/)).toBeDisabled();
    expect(screen.getByLabelText(/^Send mail/)).toBeDisabled();
  });

  it('adds and removes office hours and sets a channel per role', async () => {
    state = communication();
    const user = userEvent.setup();
    renderSection(<CommunicationSection />);
    await user.click(await screen.findByRole('button', { name: 'Add hours on Saturday' }));
    expect(screen.getByLabelText('Saturday span 1 from')).toHaveValue('09:00');
    await user.click(screen.getByRole('button', { name: 'Remove Saturday span 1' }));
    expect(screen.queryByLabelText('Saturday span 1 from')).toBeNull();
    const staffTasks = screen.getByLabelText('Tasks (exports, imports) for Staff');
    await user.selectOptions(staffTasks, 'mail');
    expect(staffTasks).toHaveValue('mail');
  });

  it('edits the SLA targets in hours and keeps them as office-hour minutes', async () => {
    state = communication();
    const user = userEvent.setup();
    renderSection(<CommunicationSection />);
    const urgent = await screen.findByLabelText('First response target for Urgent queries, in hours');
    expect(urgent).toHaveValue(1);
    await user.clear(urgent);
    await user.type(urgent, '0.5');
    expect(urgent).toHaveValue(0.5);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const saved = api.requests.find((request) => request.method === 'PUT');
    expect(saved?.body).toMatchObject({
      set: { slaTargets: { urgent: { firstResponseMinutes: 30, resolutionMinutes: 240 } } },
    });
  });
});
