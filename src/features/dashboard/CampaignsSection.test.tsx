// The campaigns dashboard in jsdom, from figures as the server sends them: every chart has its numbers
// beside it, a sending campaign shows its progress and retries, and empty figures say so.
import { ChakraProvider } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CampaignsDashboard } from '../../../contracts/campaigns-dashboard';
import { system } from '../../ui/theme';
import { dashboardKeys } from './api';
import { CampaignsSection, growthTable } from './CampaignsSection';

const figures: CampaignsDashboard = {
  totals: {
    contacts: 3120,
    subscribed: 3001,
    unsubscribed: 41,
    bounced: 21,
    campaignsSent: 2,
    mailsSent: 2400,
    mailsFailed: 21,
    mailsDeferred: 15,
    responses: 230,
  },
  sentOverTime: [
    { month: '2026-09', campaigns: 1, mails: 1400 },
    { month: '2026-10', campaigns: 1, mails: 1000 },
  ],
  perCampaign: [
    {
      id: 'c1',
      name: 'October newsletter',
      sent: 1000,
      failed: 5,
      unsubscribes: 10,
      responses: 70,
      unsubscribeRate: 1,
      responseRate: 7,
    },
  ],
  responsesByAnswer: [
    { response: 'Interested', count: 150 },
    { response: 'Not now', count: 80 },
  ],
  latest: [
    {
      id: 'c3',
      name: 'Festive sale',
      status: 'sending',
      total: 200,
      done: 50,
      sent: 45,
      failed: 5,
      deferred: 15,
      scheduledAt: null,
      startedAt: '2026-11-20T10:00:00.000Z',
      finishedAt: null,
    },
  ],
  contactsGrowth: [
    { month: '2026-10', source: 'lead_import', count: 100 },
    { month: '2026-10', source: 'help_chat', count: 4 },
    { month: '2026-11', source: 'manual', count: 2 },
  ],
};

function renderWith(data: CampaignsDashboard) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY } } });
  client.setQueryData(dashboardKeys.campaigns(), data);
  return render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <CampaignsSection />
      </QueryClientProvider>
    </ChakraProvider>,
  );
}

afterEach(cleanup);

describe('the campaigns dashboard', () => {
  it('shows the totals, and each chart with its numbers beside it', () => {
    renderWith(figures);
    expect(screen.getByText('3,120')).toBeInTheDocument();
    expect(screen.getByText('3,001 subscribed')).toBeInTheDocument();
    expect(screen.getByText('15 waiting for a retry')).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'Mails sent per month: Sept 2026 1,400, Oct 2026 1,000' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'Responses by answer: Interested 150, Not now 80' }),
    ).toBeInTheDocument();
    // The rates chart charts both rates, and says which colour is which.
    expect(
      screen.getByRole('img', {
        name: 'Rates per campaign, percent of the mails sent: October newsletter: Response rate 7%, Unsubscribe rate 1%',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Unsubscribe rate')).toBeInTheDocument();
    const rates = screen.getByRole('row', { name: /October newsletter/ });
    expect(within(rates).getByText('70 (7%)')).toBeInTheDocument();
    expect(within(rates).getByText('10 (1%)')).toBeInTheDocument();
  });

  it('follows a sending campaign: its share done and the mails waiting for a retry', () => {
    renderWith(figures);
    const item = screen.getByRole('listitem');
    expect(within(item).getByText('Festive sale')).toBeInTheDocument();
    expect(within(item).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    expect(item).toHaveTextContent('45 sent of 200, 5 failed, 15 waiting for a retry');
    expect(within(item).getByText('Sending')).toBeInTheDocument();
  });

  it('says so when there is nothing to show yet', () => {
    renderWith({
      ...figures,
      sentOverTime: [],
      perCampaign: [],
      responsesByAnswer: [],
      latest: [],
      contactsGrowth: [],
    });
    expect(screen.getByText('No campaign has been sent in the last 12 months.')).toBeInTheDocument();
    expect(screen.getByText('No campaign yet.')).toBeInTheDocument();
    expect(screen.getByText('No recipient has answered yet.')).toBeInTheDocument();
    expect(screen.getByText('No contact was added in the last 12 months.')).toBeInTheDocument();
  });
});

describe('growthTable', () => {
  it('gives every month a count for every source, zeros included, and the month total', () => {
    expect(growthTable(figures.contactsGrowth)).toEqual([
      {
        month: '2026-10',
        bySource: { lead_import: 100, help_chat: 4, customer_query: 0, manual: 0 },
        total: 104,
      },
      {
        month: '2026-11',
        bySource: { lead_import: 0, help_chat: 0, customer_query: 0, manual: 2 },
        total: 2,
      },
    ]);
  });
});
