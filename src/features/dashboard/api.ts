import { queryOptions, useQuery } from '@tanstack/react-query';
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
};

export const dashboardSummaryQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.summary(),
    queryFn: async (): Promise<DashboardSummary> => (await http.get('/api/v1/dashboard/getSummary')).data,
  });

export const useDashboardSummary = () => useQuery(dashboardSummaryQuery());
