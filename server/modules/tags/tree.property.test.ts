// Property test (issue 16): random sequences of add / rename / move / delete on the draft, through the
// real API, with publishes in between and a rollback to an earlier version, always leave a tree — each
// node on one path from a root, no cycles, levels equal depths, children counts right — and a rollback
// reproduces exactly the nodes of the version it brings back. Refused writes (a name taken, a move
// under a descendant) are fine: they must leave the tree as it was.
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishPreview, TagNodeWithPath, TagTreeState } from '../../../contracts/tags';
import { rowsOf } from '../../db/rows';
import { type ApiAs, apiAs, createTestApp, json, type TestApp } from '../../test-support';
import { clearTagTree } from './test-helpers';

const API = '/api/v1/tags';
const NAMES = ['Alpha', 'Beta', 'Gamma', 'alpha', 'Delta', 'Beta '];

type Op =
  | { kind: 'add'; parent: number | null; name: number }
  | { kind: 'rename'; node: number; name: number }
  | { kind: 'move'; node: number; parent: number | null }
  | { kind: 'delete'; node: number; lift: boolean };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      parent: fc.option(fc.nat(50), { nil: null }),
      name: fc.nat(NAMES.length - 1),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rename' as const),
      node: fc.nat(50),
      name: fc.nat(NAMES.length - 1),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      node: fc.nat(50),
      parent: fc.option(fc.nat(50), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('delete' as const), node: fc.nat(50), lift: fc.boolean() }),
  },
);

interface Row {
  id: string;
  seq: number;
  parent_id: string | null;
  path: string;
  level: number;
  name: string;
  code: string;
  children_count: number;
  version: number;
}

describe('the draft tag tree under random edits, publishes and a rollback', () => {
  let t: TestApp;
  let as: ApiAs;

  beforeAll(async () => {
    t = await createTestApp({ backend: 'pglite', jobs: { enabled: false } });
    as = await apiAs(t.app);
  }, 60_000);
  afterAll(() => t?.close());

  const draft = async () =>
    rowsOf<Row>(
      await t.database.db.execute(
        sql`SELECT id, seq, parent_id, path, level, name, code, children_count, version FROM tag_nodes ORDER BY id`,
      ),
    );
  const version = async (n: number) =>
    rowsOf<Omit<Row, 'children_count' | 'version'>>(
      await t.database.db.execute(sql`
        SELECT node_id AS id, seq, parent_id, path, level, name, code FROM tag_node_versions
        WHERE valid_from <= ${n} AND (valid_to IS NULL OR valid_to > ${n}) ORDER BY node_id`),
    );

  /** Every node hangs from a root by one path its path and level agree with; children counts add up. */
  function assertTree(rows: Row[]) {
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const row of rows) {
      const parent = row.parent_id ? byId.get(row.parent_id) : null;
      expect(parent, 'the parent exists').not.toBeUndefined();
      expect(row.path).toBe(`${parent ? parent.path : '/'}${row.seq}/`);
      expect(row.level).toBe(parent ? parent.level + 1 : 1);
      expect(row.children_count).toBe(rows.filter((other) => other.parent_id === row.id).length);
      // Walking up reaches a root in at most `level` steps: no cycle.
      let steps = 0;
      for (let at: Row | undefined = row; at?.parent_id; at = byId.get(at.parent_id)) steps++;
      expect(steps).toBe(row.level - 1);
    }
    const siblings = new Set(rows.map((row) => `${row.parent_id}|${row.name.trim().toLowerCase()}`));
    expect(siblings.size).toBe(rows.length);
  }

  const outcomes = { accepted: 0, refused: 0 };

  async function apply(op: Op) {
    const rows = await draft();
    const pick = (index: number | null) =>
      index === null || rows.length === 0 ? null : rows[index % rows.length];
    let response: Awaited<ReturnType<ApiAs>> | null = null;
    if (op.kind === 'add') {
      response = await as('Admin', 'POST', `${API}/draft/nodes`, {
        name: NAMES[op.name],
        parentId: pick(op.parent)?.id ?? null,
      });
    } else {
      const node = pick(op.node);
      if (!node) return;
      if (op.kind === 'rename')
        response = await as('Admin', 'PATCH', `${API}/draft/nodes/${node.id}`, {
          version: node.version,
          name: NAMES[op.name],
        });
      if (op.kind === 'move')
        response = await as('Admin', 'POST', `${API}/draft/nodes/${node.id}/move`, {
          version: node.version,
          parentId: pick(op.parent)?.id ?? null,
        });
      if (op.kind === 'delete')
        response = await as('Admin', 'POST', `${API}/draft/nodes/${node.id}/delete`, {
          version: node.version,
          children: op.lift ? 'lift' : 'delete',
        });
    }
    // Accepted, or refused with a message; never a server error.
    expect([200, 201, 409], response?.body).toContain(response?.statusCode);
    if (response && response.statusCode < 300) outcomes.accepted++;
    else outcomes.refused++;
  }

  async function publish() {
    const preview = json<PublishPreview>(await as('Admin', 'GET', `${API}/publishPreview`));
    expect(preview.problems).toEqual([]);
    const response = await as('Admin', 'POST', `${API}/publish`, { draftRevision: preview.draftRevision });
    expect(response.statusCode, response.body).toBe(201);
    return json<{ number: number }>(response).number;
  }

  it('always leaves a tree, and a rollback brings back exactly that version’s nodes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(opArbitrary, { minLength: 1, maxLength: 12 }), { minLength: 2, maxLength: 3 }),
        fc.nat(),
        async (rounds, back) => {
          await clearTagTree(t.database.db);
          const published: number[] = [];
          for (const ops of rounds) {
            for (const op of ops) await apply(op);
            assertTree(await draft());
            published.push(await publish());
            const live = await version(published.at(-1) as number);
            expect(live.map(({ id, path, name }) => [id, path, name])).toEqual(
              (await draft()).map(({ id, path, name }) => [id, path, name]),
            );
          }
          const target = published[back % published.length] as number;
          const { draftRevision } = json<TagTreeState>(await as('Admin', 'GET', `${API}/state`));
          const rolled = await as('Admin', 'POST', `${API}/rollback`, { version: target, draftRevision });
          expect(rolled.statusCode, rolled.body).toBe(200);
          const restored = await draft();
          assertTree(restored);
          expect(
            restored.map(({ id, seq, parent_id, path, level, name, code }) => ({
              id,
              seq,
              parent_id,
              path,
              level,
              name,
              code,
            })),
          ).toEqual(await version(target));
          const again = await publish();
          expect(await version(again)).toEqual(await version(target));
          // Every node a reader can open in the rolled-back draft reads back with its path.
          const first = restored[0];
          if (first) {
            const read = json<TagNodeWithPath>(
              await as('Admin', 'GET', `${API}/trees/draft/nodes/${first.id}`),
            );
            expect(read.level).toBe(first.level);
          }
        },
      ),
      { numRuns: 40 },
    );
    // The runs did change the tree (most writes went through), and some were refused as they should be.
    expect(outcomes.accepted).toBeGreaterThan(outcomes.refused);
    expect(outcomes.accepted).toBeGreaterThan(50);
  }, 240_000);
});
