import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CampaignsDashboard } from '../../../contracts/campaigns-dashboard';
import { http } from '../../services/http';

export interface DashboardSummary {
  sellerTabs: { active: number; pendingVerification: number; pendingKyc: number; inactive: number };
  blockedSellers: number;
  usersByRole: { role: string; count: number }[];
  sellerSignups: { month: string; count: number }[];
}

export const dashboardKeys = {
  all: ['dashboard'] as const,
  summary: () => [...dashboardKeys.all, 'summary'] as const,
  campaigns: () => [...dashboardKeys.all, 'campaigns'] as const,
};

export const dashboardSummaryQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.summary(),
    queryFn: async (): Promise<DashboardSummary> => (await http.get('/api/v1/dashboard/getSummary')).data,
  });

export const useDashboardSummary = () => useQuery(dashboardSummaryQuery());

/** While a campaign sends, its progress bar follows it. */
const SENDING_REFRESH_MS = 3000;

export const campaignsDashboardQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.campaigns(),
    queryFn: async (): Promise<CampaignsDashboard> =>
      (await http.get('/api/v1/dashboard/getCampaignsSummary')).data,
    refetchInterval: (query) =>
      query.state.data?.latest.some((campaign) => campaign.status === 'sending') ? SENDING_REFRESH_MS : false,
  });

export const useCampaignsDashboard = () => useQuery(campaignsDashboardQuery());
