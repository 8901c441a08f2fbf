// Plan checks for tests: the statements a piece of real code sends (captured through Drizzle's query
// logger, so query builders and db.execute alike) and PostgreSQL's plan for each, with its own
// parameters, from EXPLAIN (FORMAT JSON). Tests assert on the plan's nodes: which index a scan uses,
// and that nothing sorts a sequential scan in memory. EXPLAIN without ANALYZE: plans, not timings, so
// the checks do not depend on the machine's load.
import type { Db } from './db/client';

export interface Statement {
  text: string;
  params: unknown[];
}

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Sort Key'?: string[];
  'Plan Rows'?: number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

interface Logger {
  logQuery(query: string, params: unknown[]): void;
}
interface DriverSession {
  logger: Logger;
  options: { logger?: Logger };
  client: { query(text: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
}
const sessionOf = (db: Db) => (db as unknown as { session: DriverSession }).session;

/** Runs `work` and returns its result and every statement it sent, in order. */
export async function captureStatements<T>(
  db: Db,
  work: () => Promise<T>,
): Promise<{ result: T; statements: Statement[] }> {
  const session = sessionOf(db);
  const statements: Statement[] = [];
  const previous = session.logger;
  const previousOption = session.options.logger;
  const recorder: Logger = { logQuery: (text, params) => statements.push({ text, params: [...params] }) };
  session.logger = recorder;
  session.options.logger = recorder; // transactions open sessions from the options
  try {
    return { result: await work(), statements };
  } finally {
    session.logger = previous;
    session.options.logger = previousOption;
  }
}

/** PostgreSQL's plan for one captured statement, with the parameters it was sent with. */
export async function planOf(db: Db, statement: Statement): Promise<PlanNode> {
  const { rows } = await sessionOf(db).client.query(
    `EXPLAIN (FORMAT JSON) ${statement.text}`,
    statement.params,
  );
  const raw = rows[0]?.['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  return parsed[0]?.Plan as PlanNode;
}

/** Every node of a plan, depth first (CTEs, InitPlans and SubPlans are children too). */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

/** One line per node, indented: what a failing assertion prints. */
export function describePlan(plan: PlanNode, depth = 0): string {
  const on = plan['Relation Name'] ? ` on ${plan['Relation Name']}` : '';
  const using = plan['Index Name'] ? ` using ${plan['Index Name']}` : '';
  const direction = plan['Scan Direction'] === 'Backward' ? ' Backward' : '';
  const line = `${'  '.repeat(depth)}${plan['Node Type']}${direction}${using}${on} (rows ${plan['Plan Rows']})`;
  return [line, ...(plan.Plans ?? []).map((child) => describePlan(child, depth + 1))].join('\n');
}

const scans = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);

/** The indexes a plan reads (index, index-only and bitmap index scans). */
export function indexesRead(plan: PlanNode): string[] {
  return planNodes(plan)
    .filter((node) => scans.has(node['Node Type']))
    .map((node) => node['Index Name'] as string);
}

/** The tables a plan reads whole (sequential scans), by name. */
export function tablesScanned(plan: PlanNode): string[] {
  return planNodes(plan)
    .filter((node) => node['Node Type'] === 'Seq Scan')
    .map((node) => node['Relation Name'] as string);
}

/** Sort nodes that have a sequential scan of one of `tables` below them: a table sorted in memory. */
export function sortsOfScans(plan: PlanNode, tables: readonly string[]): PlanNode[] {
  return planNodes(plan).filter(
    (node) =>
      (node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort') &&
      tablesScanned(node).some((table) => tables.includes(table)),
  );
}
