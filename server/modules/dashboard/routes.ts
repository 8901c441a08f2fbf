import { count, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { campaignsDashboardSchema } from '../../../contracts/campaigns-dashboard';
import { sellers, users } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { campaignsDashboard } from './campaigns-summary';

export const dashboardSummarySchema = z.object({
  sellerTabs: z.object({
    active: z.number(),
    pendingVerification: z.number(),
    pendingKyc: z.number(),
    inactive: z.number(),
  }),
  blockedSellers: z.number(),
  usersByRole: z.array(z.object({ role: z.string(), count: z.number() })),
  sellerSignups: z.array(z.object({ month: z.string(), count: z.number() })),
});

/** The admin and staff landing page: live marketplace figures, counted in the database. */
export async function dashboardRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/getSummary',
    {
      config: { permission: { route: '/', action: 'view' } },
      schema: {
        tags: ['dashboard'],
        summary: 'Marketplace overview',
        response: { 200: dashboardSummarySchema, ...errorResponses(403) },
      },
    },
    async () => {
      // One pass over sellers with FILTER clauses rather than four COUNT queries.
      const [tabs] = await app.db
        .select({
          active: sql<number>`count(*) filter (where ${sellers.isActive})`.mapWith(Number),
          pendingVerification:
            sql<number>`count(*) filter (where not ${sellers.isActive} and not ${sellers.isEmailVerified})`.mapWith(
              Number,
            ),
          pendingKyc:
            sql<number>`count(*) filter (where not ${sellers.isActive} and ${sellers.isEmailVerified} and not ${sellers.isKycDone})`.mapWith(
              Number,
            ),
          inactive:
            sql<number>`count(*) filter (where not ${sellers.isActive} and ${sellers.isEmailVerified} and ${sellers.isKycDone})`.mapWith(
              Number,
            ),
          blocked: sql<number>`count(*) filter (where ${sellers.blocked})`.mapWith(Number),
        })
        .from(sellers);
      const usersByRole = await app.db
        .select({ role: users.role, count: count() })
        .from(users)
        .groupBy(users.role)
        .orderBy(users.role);
      const month = sql<string>`to_char(date_trunc('month', ${sellers.createdAt}), 'YYYY-MM')`;
      const sellerSignups = await app.db
        .select({ month, count: count() })
        .from(sellers)
        .where(sql`${sellers.createdAt} > now() - interval '12 months'`)
        .groupBy(month)
        .orderBy(month);
      return {
        sellerTabs: {
          active: tabs?.active ?? 0,
          pendingVerification: tabs?.pendingVerification ?? 0,
          pendingKyc: tabs?.pendingKyc ?? 0,
          inactive: tabs?.inactive ?? 0,
        },
        blockedSellers: tabs?.blocked ?? 0,
        usersByRole,
        sellerSignups,
      };
    },
  );

  // The campaigns dashboard beside the marketplace figures: the same landing page (SPEC §1).
  app.withTypeProvider<ZodTypeProvider>().get(
    '/getCampaignsSummary',
    {
      config: { permission: { route: '/', action: 'view' } },
      schema: {
        tags: ['dashboard'],
        summary: 'Campaigns overview: sends over time, rates per campaign, answers, contacts growth',
        response: { 200: campaignsDashboardSchema, ...errorResponses(403) },
      },
    },
    async () => campaignsDashboard(app.db),
  );
}
