// The SLA report (issue 30; Chatwoot #9747 asked for exactly this, and its own report took 201 s at 50
// agents, #12874): % of first-response and resolution targets met over the queries resolved in a date
// range, per assignee and per seller. One grouped statement over the resolved_at index: the outcome of
// each clock is stored on the row when it stops (first_response_met, resolution_met), never recomputed.
import { sql } from 'drizzle-orm';
import type { SlaReport, SlaReportRow } from '../../../contracts/queries';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { csvLine } from '../exports/csv';
import type { Viewer } from './repository';

interface RawRow {
  id: string | null;
  name: string | null;
  resolved: number;
  fr_met: number;
  fr_counted: number;
  res_met: number;
  res_counted: number;
}

const rate = (met: number, counted: number) => (counted ? Math.round((met / counted) * 1000) / 10 : null);

function toRow(row: RawRow, nobody: string): SlaReportRow {
  return {
    id: row.id,
    name: row.name ?? nobody,
    resolved: Number(row.resolved),
    firstResponseMet: Number(row.fr_met),
    firstResponseCounted: Number(row.fr_counted),
    firstResponseRate: rate(Number(row.fr_met), Number(row.fr_counted)),
    resolutionMet: Number(row.res_met),
    resolutionCounted: Number(row.res_counted),
    resolutionRate: rate(Number(row.res_met), Number(row.res_counted)),
  };
}

export async function slaReport(
  db: Db,
  viewer: Viewer,
  input: { from: string; to: string; sellerId?: string },
): Promise<SlaReport> {
  const from = new Date(`${input.from}T00:00:00Z`);
  const to = new Date(Date.parse(`${input.to}T00:00:00Z`) + 86_400_000);
  const seller = viewer.isSeller
    ? (viewer.sellerId ?? '00000000-0000-0000-0000-000000000000')
    : input.sellerId;
  const figures = sql`count(*)::integer AS resolved,
    count(*) FILTER (WHERE q.first_response_met)::integer AS fr_met,
    count(q.first_response_met)::integer AS fr_counted,
    count(*) FILTER (WHERE q.resolution_met)::integer AS res_met,
    count(q.resolution_met)::integer AS res_counted`;
  const where = sql`q.resolved_at >= ${from.toISOString()}::timestamptz AND q.resolved_at < ${to.toISOString()}::timestamptz
    ${seller ? sql`AND q.seller_id = ${seller}::uuid` : sql``}`;
  const [byAssignee, bySeller] = await Promise.all([
    db.execute(sql`
      SELECT q.assignee_id::text AS id,
             coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) AS name, ${figures}
      FROM customer_queries q LEFT JOIN users u ON u.id = q.assignee_id
      WHERE ${where} GROUP BY 1, 2 ORDER BY 2 NULLS LAST`),
    db.execute(sql`
      SELECT q.seller_id::text AS id, s.seller_name AS name, ${figures}
      FROM customer_queries q LEFT JOIN sellers s ON s.id = q.seller_id
      WHERE ${where} GROUP BY 1, 2 ORDER BY 2 NULLS LAST`),
  ]);
  return {
    byAssignee: rowsOf<RawRow>(byAssignee).map((row) => toRow(row, 'Unassigned')),
    bySeller: rowsOf<RawRow>(bySeller).map((row) => toRow(row, 'Marketplace')),
  };
}

/** The report as CSV (formula-safe cells, the export job's writer): one section per grouping. */
export function slaReportCsv(report: SlaReport): string {
  const header = [
    'Grouping',
    'Name',
    'Resolved',
    'First response met',
    'First response counted',
    'First response met %',
    'Resolution met',
    'Resolution counted',
    'Resolution met %',
  ];
  const lines = [csvLine(header)];
  for (const [grouping, rows] of [
    ['Assignee', report.byAssignee],
    ['Seller', report.bySeller],
  ] as const) {
    for (const row of rows) {
      lines.push(
        csvLine([
          grouping,
          row.name,
          row.resolved,
          row.firstResponseMet,
          row.firstResponseCounted,
          row.firstResponseRate,
          row.resolutionMet,
          row.resolutionCounted,
          row.resolutionRate,
        ]),
      );
    }
  }
  return `\uFEFF${lines.join('')}`;
}
