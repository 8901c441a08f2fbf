// Changing the draft tag tree: add, rename or recode, move, delete. Each write is one transaction that
// first holds the tree's state row, so draft writes happen one after another (two moves at once could
// otherwise make a cycle), checks the node version the editor read (a stale one answers 409 naming who
// changed the node), keeps paths, levels and children counts right, bumps the draft revision (what a
// publish or rollback checks) and writes the node's history entry.
import { sql } from 'drizzle-orm';
import type {
  CreateTagBody,
  DeleteTagBody,
  DeleteTagImpact,
  DeleteTagResult,
  MoveTagBody,
  UpdateTagBody,
} from '../../../contracts/tags';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { FieldChange } from '../../db/schema';
import { type Actor, recordAudit, recordAuditEntries } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { childPath, codeFromName, freeCode, nameKeyOf } from './tree-paths';
import { tagNotFound } from './tree-reads';

export interface DraftRow {
  id: string;
  seq: number;
  parent_id: string | null;
  path: string;
  level: number;
  name: string;
  name_key: string;
  code: string;
  version: number;
  updated_by_name: string;
}

/** Holds the tree for this transaction's write and answers the draft revision it changes. */
export async function lockTree(tx: Tx): Promise<{ revision: number; rolledBackFrom: number | null }> {
  const [state] = rowsOf<{ revision: number; rolled_back_from: number | null }>(
    await tx.execute(sql`SELECT revision, rolled_back_from FROM tag_tree_state WHERE id = 1 FOR UPDATE`),
  );
  if (!state) throw new Error('the tag tree state row is missing');
  return { revision: state.revision, rolledBackFrom: state.rolled_back_from };
}

export async function bumpRevision(tx: Tx): Promise<number> {
  const [row] = rowsOf<{ revision: number }>(
    await tx.execute(
      sql`UPDATE tag_tree_state SET revision = revision + 1, updated_at = now() WHERE id = 1 RETURNING revision`,
    ),
  );
  return row?.revision ?? 0;
}

async function draftRow(tx: Tx, id: string): Promise<DraftRow | undefined> {
  const [row] = rowsOf<DraftRow>(
    await tx.execute(sql`
      SELECT id, seq, parent_id, path, level, name, name_key, code, version, updated_by_name
      FROM tag_nodes WHERE id = ${id}::uuid`),
  );
  return row;
}

/** The node an editor read, at the version they read it; 409 if someone changed it since. */
async function nodeAtVersion(tx: Tx, id: string, version: number): Promise<DraftRow> {
  const node = await draftRow(tx, id);
  if (!node) throw tagNotFound();
  if (node.version !== version) {
    throw new HttpError(
      409,
      `${node.updated_by_name} changed “${node.name}” after you opened it. Reload it to see their change, then try again.`,
      'STALE_TAG',
    );
  }
  return node;
}

async function parentRow(tx: Tx, id: string | null): Promise<DraftRow | null> {
  if (id === null) return null;
  const parent = await draftRow(tx, id);
  if (!parent) {
    throw new HttpError(400, 'There is no such parent tag.', 'UNKNOWN_PARENT', {
      parentId: 'Choose a tag that exists.',
    });
  }
  return parent;
}

/** How history names a top-level tag's parent. */
const TOP_LEVEL = 'the top level';

const where = (parent: DraftRow | null) => (parent ? `under “${parent.name}”` : 'at the top level');

async function assertNameFree(tx: Tx, parent: DraftRow | null, name: string, except?: string) {
  const [clash] = rowsOf<{ name: string }>(
    await tx.execute(sql`
      SELECT name FROM tag_nodes
      WHERE parent_id IS NOT DISTINCT FROM ${parent?.id ?? null}::uuid AND name_key = ${nameKeyOf(name)}
        ${except ? sql`AND id <> ${except}::uuid` : sql``}
      LIMIT 1`),
  );
  if (clash) {
    const message = `A tag named “${clash.name}” is already ${where(parent)}.`;
    throw new HttpError(409, message, 'DUPLICATE_NAME', { name: message });
  }
}

async function assertCodeFree(tx: Tx, code: string, except?: string) {
  const [clash] = rowsOf<{ name: string }>(
    await tx.execute(sql`
      SELECT name FROM tag_nodes WHERE code = ${code} ${except ? sql`AND id <> ${except}::uuid` : sql``}`),
  );
  if (clash) {
    const message = `The code “${code}” belongs to “${clash.name}”.`;
    throw new HttpError(409, message, 'DUPLICATE_CODE', { code: message });
  }
}

/** A code made from the name, unused in the tree. */
async function codeFor(tx: Tx, name: string): Promise<string> {
  const base = codeFromName(name);
  const taken = rowsOf<{ code: string }>(
    await tx.execute(sql`SELECT code FROM tag_nodes WHERE code = ${base} OR code LIKE ${`${base}-%`}`),
  );
  return freeCode(base, new Set(taken.map((row) => row.code)));
}

async function addChildren(tx: Tx, parentId: string | null, delta: number) {
  if (parentId === null || delta === 0) return;
  await tx.execute(
    sql`UPDATE tag_nodes SET children_count = children_count + ${delta} WHERE id = ${parentId}::uuid`,
  );
}

export async function createTag(db: Db, actor: Actor, body: CreateTagBody): Promise<string> {
  return db.transaction(async (tx) => {
    await lockTree(tx);
    const parent = await parentRow(tx, body.parentId);
    await assertNameFree(tx, parent, body.name);
    const code = body.code ?? (await codeFor(tx, body.name));
    if (body.code) await assertCodeFree(tx, body.code);
    const [next] = rowsOf<{ seq: number }>(
      await tx.execute(sql`SELECT nextval(pg_get_serial_sequence('tag_nodes', 'seq'))::integer AS seq`),
    );
    const seq = next?.seq as number;
    const path = childPath(parent?.path ?? null, seq);
    const [row] = rowsOf<{ id: string }>(
      await tx.execute(sql`
        INSERT INTO tag_nodes (seq, parent_id, path, level, name, name_key, code, updated_by, updated_by_name)
        VALUES (${seq}, ${parent?.id ?? null}::uuid, ${path}, ${(parent?.level ?? 0) + 1}, ${body.name},
                ${nameKeyOf(body.name)}, ${code}, ${actor.id}::uuid, ${actor.name})
        RETURNING id`),
    );
    const id = row?.id as string;
    await addChildren(tx, parent?.id ?? null, 1);
    await bumpRevision(tx);
    await recordAudit(tx, {
      subject: { type: 'tag', id: id },
      actor,
      action: 'created',
      note: `“${body.name}” (${code}), ${parent ? `under “${parent.name}”` : 'at the top level'}.`,
    });
    return id;
  });
}

export async function updateTag(db: Db, actor: Actor, id: string, body: UpdateTagBody): Promise<void> {
  await db.transaction(async (tx) => {
    await lockTree(tx);
    const node = await nodeAtVersion(tx, id, body.version);
    const changes: FieldChange[] = [];
    if (body.name !== undefined && body.name !== node.name) {
      if (nameKeyOf(body.name) !== node.name_key) {
        await assertNameFree(tx, await parentRow(tx, node.parent_id), body.name, node.id);
      }
      changes.push({ field: 'name', before: node.name, after: body.name });
    }
    if (body.code !== undefined && body.code !== node.code) {
      await assertCodeFree(tx, body.code, node.id);
      changes.push({ field: 'code', before: node.code, after: body.code });
    }
    if (changes.length === 0) return;
    const name = body.name ?? node.name;
    await tx.execute(sql`
      UPDATE tag_nodes SET name = ${name}, name_key = ${nameKeyOf(name)}, code = ${body.code ?? node.code},
             version = version + 1, updated_by = ${actor.id}::uuid, updated_by_name = ${actor.name},
             updated_at = now()
      WHERE id = ${id}::uuid`);
    await bumpRevision(tx);
    await recordAudit(tx, { subject: { type: 'tag', id: id }, actor, action: 'updated', changes });
  });
}

/**
 * Moves the node (and its subtree) under another parent, or to the top level. Only the subtree's rows
 * are written: their paths get the new prefix and their levels shift by the same amount.
 */
export async function moveTag(db: Db, actor: Actor, id: string, body: MoveTagBody): Promise<void> {
  await db.transaction(async (tx) => {
    await lockTree(tx);
    const node = await nodeAtVersion(tx, id, body.version);
    if (body.parentId === node.parent_id) return;
    if (body.parentId === node.id) {
      throw new HttpError(409, 'A tag cannot move under itself.', 'MOVE_CYCLE');
    }
    const parent = await parentRow(tx, body.parentId);
    if (parent?.path.startsWith(node.path)) {
      throw new HttpError(
        409,
        `“${node.name}” cannot move under “${parent.name}”, which is inside it.`,
        'MOVE_CYCLE',
      );
    }
    await assertNameFree(tx, parent, node.name, node.id);
    const path = childPath(parent?.path ?? null, node.seq);
    const shift = (parent?.level ?? 0) + 1 - node.level;
    await tx.execute(sql`
      UPDATE tag_nodes SET path = ${path} || substr(path, ${node.path.length + 1}), level = level + ${shift}
      WHERE path LIKE ${`${node.path}%`}`);
    await tx.execute(sql`
      UPDATE tag_nodes SET parent_id = ${parent?.id ?? null}::uuid, version = version + 1,
             updated_by = ${actor.id}::uuid, updated_by_name = ${actor.name}, updated_at = now()
      WHERE id = ${id}::uuid`);
    await addChildren(tx, node.parent_id, -1);
    await addChildren(tx, parent?.id ?? null, 1);
    await bumpRevision(tx);
    const before = await parentRow(tx, node.parent_id);
    await recordAudit(tx, {
      subject: { type: 'tag', id: id },
      actor,
      action: 'moved',
      changes: [{ field: 'parent', before: before?.name ?? TOP_LEVEL, after: parent?.name ?? TOP_LEVEL }],
    });
  });
}

/** What deleting the node would touch, for the question the page asks before it deletes. */
export async function deleteImpact(db: Db, id: string): Promise<DeleteTagImpact> {
  const [node] = rowsOf<{ path: string; children_count: number }>(
    await db.execute(sql`SELECT path, children_count FROM tag_nodes WHERE id = ${id}::uuid`),
  );
  if (!node) throw tagNotFound();
  const [row] = rowsOf<{ descendants: number; products: number; subtree_products: number }>(
    await db.execute(sql`
      WITH subtree AS (SELECT id FROM tag_nodes WHERE path LIKE ${`${node.path}%`})
      SELECT (SELECT count(*)::integer - 1 FROM subtree) AS descendants,
             (SELECT count(*)::integer FROM products WHERE tag_ids @> ARRAY[${id}::uuid]) AS products,
             (SELECT count(*)::integer FROM products WHERE tag_ids && ARRAY(SELECT id FROM subtree))
               AS subtree_products`),
  );
  return {
    children: node.children_count,
    descendants: row?.descendants ?? 0,
    products: row?.products ?? 0,
    subtreeProducts: row?.subtree_products ?? 0,
  };
}

/**
 * Replaces `removed` tags on the products that carry them: with `replacement` (a node that stays), or
 * with nothing. Each product changed gets a history entry saying why.
 */
export async function retagProducts(
  tx: Tx,
  actor: Actor,
  removed: readonly string[],
  replacement: string | null,
  note: string,
): Promise<number> {
  if (removed.length === 0) return 0;
  const ids = sql`${`{${removed.join(',')}}`}::uuid[]`;
  const kept = sql`ARRAY(SELECT t FROM unnest(p.tag_ids) t WHERE t <> ALL(${ids}))`;
  const next = replacement
    ? sql`ARRAY(SELECT DISTINCT x FROM unnest(array_append(${kept}, ${replacement}::uuid)) x)`
    : kept;
  const changed = rowsOf<{ id: string }>(
    await tx.execute(sql`
      UPDATE products p SET tag_ids = ${next}, version = p.version + 1, updated_at = now()
      WHERE p.tag_ids && ${ids}
      RETURNING p.id`),
  );
  await recordAuditEntries(
    tx,
    changed.map((row) => ({ subject: { type: 'product', id: row.id }, actor, action: 'tags', note })),
  );
  return changed.length;
}

/**
 * Deletes the node. Its children move up to its parent (`lift`), or go with it (`delete`); products
 * tagged with what is deleted get the parent's tag instead (`parent`) or lose the tag (`untag`).
 */
export async function deleteTag(
  db: Db,
  actor: Actor,
  id: string,
  body: Required<DeleteTagBody>,
): Promise<DeleteTagResult> {
  return db.transaction(async (tx) => {
    await lockTree(tx);
    const node = await nodeAtVersion(tx, id, body.version);
    const parent = await parentRow(tx, node.parent_id);
    if (body.products === 'parent' && !parent) {
      throw new HttpError(
        400,
        `“${node.name}” is at the top level: its products have no parent tag to get. Choose to remove the tag from them.`,
        'NO_PARENT',
        { products: 'A top-level tag has no parent.' },
      );
    }
    let removed: string[] = [node.id];
    let lifted = 0;
    if (body.children === 'delete') {
      removed = rowsOf<{ id: string }>(
        await tx.execute(sql`SELECT id FROM tag_nodes WHERE path LIKE ${`${node.path}%`}`),
      ).map((row) => row.id);
    } else {
      const children = rowsOf<{ id: string; name: string; name_key: string }>(
        await tx.execute(
          sql`SELECT id, name, name_key FROM tag_nodes WHERE parent_id = ${node.id}::uuid ORDER BY name_key`,
        ),
      );
      for (const child of children) await assertNameFree(tx, parent, child.name, node.id);
      if (children.length) {
        // A child may share the node's name: the node gives its key up first (it goes at the end of
        // this transaction), so the sibling-name constraint holds at every statement. No real key has
        // a line break (nameKeyOf folds white space).
        await tx.execute(
          sql`UPDATE tag_nodes SET name_key = ${`\ndeleted ${node.id}`} WHERE id = ${node.id}::uuid`,
        );
        // Every descendant drops the node's seq from its path and comes up a level.
        await tx.execute(sql`
          UPDATE tag_nodes SET path = ${parent?.path ?? '/'} || substr(path, ${node.path.length + 1}),
                 level = level - 1
          WHERE path LIKE ${`${node.path}%`} AND id <> ${node.id}::uuid`);
        await tx.execute(sql`
          UPDATE tag_nodes SET parent_id = ${parent?.id ?? null}::uuid, version = version + 1,
                 updated_by = ${actor.id}::uuid, updated_by_name = ${actor.name}, updated_at = now()
          WHERE parent_id = ${node.id}::uuid`);
        lifted = children.length;
      }
    }
    const productsChanged = await retagProducts(
      tx,
      actor,
      removed,
      body.products === 'parent' ? (parent?.id ?? null) : null,
      `Tag “${node.name}” was deleted${body.products === 'parent' && parent ? `: tagged “${parent.name}” instead` : ''}.`,
    );
    await tx.execute(sql`DELETE FROM tag_nodes WHERE id = ANY(${`{${removed.join(',')}}`}::uuid[])`);
    await addChildren(tx, parent?.id ?? null, lifted - 1);
    await bumpRevision(tx);
    await recordAudit(tx, {
      subject: { type: 'tag', id: node.id },
      actor,
      action: 'deleted',
      note:
        body.children === 'delete'
          ? `With its ${removed.length - 1} descendants.`
          : lifted
            ? `Its ${lifted} children moved up to ${parent ? `“${parent.name}”` : 'the top level'}.`
            : null,
    });
    return { deleted: removed.length, lifted, productsChanged };
  });
}
