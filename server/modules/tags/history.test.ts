// The tag tree's history on PGlite and PostgreSQL: entries written in one transaction share a
// timestamp (now() is the transaction's start), so the order they were written in decides.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAuditPage, recordAudit, SYSTEM_ACTOR } from '../../lib/audit';
import { createTestApp, type TestApp, testBackends } from '../../test-support';
import { createTag } from './draft-writes';
import { clearTagTree } from './test-helpers';
import { publish, readTreeState } from './versions';

describe.each(testBackends)('tag history on %s', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    await clearTagTree(t.database.db);
  });
  afterAll(() => t?.close());

  it('lists entries with the same timestamp newest first, in the order they were written', async () => {
    const written = Array.from({ length: 8 }, (_, index) => `Step ${index + 1}.`);
    await t.database.db.transaction(async (tx) => {
      for (const note of written) {
        await recordAudit(tx, {
          subject: { type: 'tag', id: null },
          actor: SYSTEM_ACTOR,
          action: 'levels',
          note,
        });
      }
    });
    const page = await readAuditPage(t.database.db, { type: 'tag', id: null }, { skip: 0, limit: 20 });
    expect(new Set(page.result.map((entry) => entry.at)).size).toBe(1);
    expect(page.result.map((entry) => entry.note)).toEqual([...written].reverse());
    const second = await readAuditPage(t.database.db, { type: 'tag', id: null }, { skip: 3, limit: 2 });
    expect(second.result.map((entry) => entry.note)).toEqual(['Step 5.', 'Step 4.']);
  });

  it("writes sentences, with a tag's name and a publisher's note quoted once", async () => {
    const actor = { id: null, name: 'Sam' };
    const id = await createTag(t.database.db, actor, { parentId: null, name: 'Footwear' });
    expect(
      (await readAuditPage(t.database.db, { type: 'tag', id: id }, { skip: 0, limit: 5 })).result[0]?.note,
    ).toMatch(/^“Footwear” \([^)]+\), at the top level\.$/);
    const { draftRevision } = await readTreeState(t.database.db);
    await publish(t.database.db, actor, { draftRevision, note: 'Spring range', remap: [] });
    expect(
      (await readAuditPage(t.database.db, { type: 'tag', id: null }, { skip: 0, limit: 1 })).result[0]?.note,
    ).toMatch(/^Version \d+: 1 added, 0 removed, 0 renamed, 0 moved\. Note: “Spring range”$/);
  });
});
