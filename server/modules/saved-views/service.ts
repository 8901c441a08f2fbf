// Saved views (ARCHITECTURE "saved views"): any list's query, columns, sort and page size, stored per
// owner and shared by scope. Nothing here knows which list it serves: `viewLists` (contracts) maps a
// list to the manifest route whose permissions govern it — `view` to see and keep views of the list,
// `publish` to share one with everyone.
//
// Who sees a view:
// - its owner, whatever its scope (only the owner may change or delete it);
// - `team`: for a seller's user, the other users of the same seller; for staff and admins, every staff
//   member and admin. The two teams never see each other's team views: a seller's team view is that
//   seller's business, and the back office's team views are the back office's working lists;
// - `everyone`: every user who may view the list. Only someone with `publish` on the list's route makes
//   a view (or keeps one) shared with everyone; anyone may stop sharing their own or delete it.
// The query tree is checked against its schema when saved (contracts); whether its fields still exist
// is the list's business when the view is used, since attributes come and go.
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { PermissionMap } from '../../../contracts/permissions';
import type { ServerRole } from '../../../contracts/roles';
import { findRoute, type RouteAction } from '../../../contracts/routes';
import {
  type createViewBodySchema,
  type DefaultView,
  MAX_VIEWS_PER_LIST,
  type SavedView,
  type SetDefaultViewBody,
  type updateViewBodySchema,
  type ViewList,
  viewLists,
  viewStateSchema,
} from '../../../contracts/saved-views';
import type { Db, Tx } from '../../db/client';
import { defaultViews, savedViews, users } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { can } from '../permissions/service';
import { displayName } from '../users/current-user';

export interface ViewUser {
  userId: string;
  role: ServerRole;
  /** A seller user's seller: their team. */
  sellerId: string | null;
  permissions: PermissionMap;
}

type CreateViewInput = z.output<typeof createViewBodySchema>;
type UpdateViewInput = z.output<typeof updateViewBodySchema>;

/**
 * A menu's worth: every view of the user (at most MAX_VIEWS_PER_LIST), their default, then shared
 * views by name. A busy back office can share more than a menu can show; the rest stay out of it.
 */
export const LIST_LIMIT = 300;

const NAME_INDEX = 'saved_views_owner_name_uq';

const notFound = () =>
  new HttpError(404, 'There is no such view, or it is not shared with you.', 'VIEW_NOT_FOUND');

const duplicateName = (name: string) => {
  const message = `You already have a view called "${name}".`;
  return new HttpError(409, message, 'DUPLICATE_VIEW_NAME', { name: message });
};

export const isViewList = (list: string): list is ViewList => Object.hasOwn(viewLists, list);

const routeName = (list: ViewList) => findRoute(viewLists[list])?.name ?? viewLists[list];

/** The list's own permission, checked here because the list comes with the request, not the route. */
export function assertMay(user: ViewUser, list: ViewList, action: RouteAction): void {
  if (!can(user.permissions, viewLists[list], action)) {
    throw new HttpError(403, `You do not have permission to ${action} ${routeName(list)}.`, 'FORBIDDEN');
  }
}

function assertMayPublish(user: ViewUser, list: ViewList): void {
  if (!can(user.permissions, viewLists[list], 'publish')) {
    const message = `Only users who may publish ${routeName(list)} can share a view with everyone.`;
    throw new HttpError(403, message, 'FORBIDDEN', { scope: message });
  }
}

/** Which views the user sees, as a condition on `saved_views` joined with its owner (`users`). */
function visibleTo(user: ViewUser): SQL {
  const isTeam = eq(savedViews.scope, 'team');
  const team =
    user.role === 'Seller'
      ? // A seller account without a seller (never made by the product) has no team.
        user.sellerId
        ? and(isTeam, eq(savedViews.ownerSellerId, user.sellerId))
        : undefined
      : and(isTeam, isNull(savedViews.ownerSellerId), inArray(users.role, ['Admin', 'Staff']));
  return or(eq(savedViews.ownerId, user.userId), eq(savedViews.scope, 'everyone'), team) as SQL;
}

/** The columns a DTO needs: the view, its owner's name, and whether it is this user's default. */
function selectViews(db: Db | Tx, user: ViewUser) {
  return db
    .select({
      view: savedViews,
      owner: { firstName: users.firstName, lastName: users.lastName, email: users.email },
      defaultFor: defaultViews.userId,
    })
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerId))
    .leftJoin(
      defaultViews,
      and(
        eq(defaultViews.viewId, savedViews.id),
        eq(defaultViews.userId, user.userId),
        eq(defaultViews.list, savedViews.list),
      ),
    );
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof selectViews>['where']>>[number];

/** The DTO, or null when the stored state no longer passes the schema (then the view is left out). */
function toSavedView(row: ViewRow, user: ViewUser): SavedView | null {
  const state = viewStateSchema.safeParse(row.view.state);
  if (!state.success) return null;
  const { view, owner } = row;
  return {
    id: view.id,
    list: view.list,
    name: view.name,
    scope: view.scope,
    state: state.data,
    owner: { id: view.ownerId, name: displayName(owner.firstName, owner.lastName, owner.email) },
    editable: view.ownerId === user.userId,
    isDefault: row.defaultFor !== null,
    updatedAt: view.updatedAt.toISOString(),
  };
}

/** The views of a list the user may see: their own first, then by name (case and accents aside). */
export async function listViews(db: Db, user: ViewUser, list: ViewList): Promise<SavedView[]> {
  assertMay(user, list, 'view');
  const rows = await selectViews(db, user)
    .where(and(eq(savedViews.list, list), visibleTo(user)))
    // Picks what the limit keeps: own views and the default always make it into the menu.
    .orderBy(
      desc(eq(savedViews.ownerId, user.userId)),
      desc(isNotNull(defaultViews.userId)),
      asc(sql`lower(${savedViews.name})`),
      asc(savedViews.id),
    )
    .limit(LIST_LIMIT);
  // Sorted again here: SQL collations differ between PGlite and PostgreSQL; the menu must not.
  const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  return rows
    .map((row) => toSavedView(row, user))
    .filter((view): view is SavedView => view !== null)
    .sort(
      (a, b) =>
        Number(b.editable) - Number(a.editable) ||
        collator.compare(a.name, b.name) ||
        a.id.localeCompare(b.id),
    );
}

/** The view, if the user may see it; 404 otherwise (ids of views shared with others cannot be probed). */
async function findVisible(db: Db | Tx, user: ViewUser, id: string): Promise<ViewRow> {
  const [row] = await selectViews(db, user).where(and(eq(savedViews.id, id), visibleTo(user)));
  if (!row || !isViewList(row.view.list)) throw notFound();
  return row;
}

/** The view as the API answers it, read back after a write. */
async function viewDto(db: Db | Tx, user: ViewUser, id: string): Promise<SavedView> {
  const view = toSavedView(await findVisible(db, user, id), user);
  if (!view) throw notFound();
  return view;
}

/** Another view of the owner on the list with this name, compared as the unique index does. */
async function assertNameFree(tx: Tx, user: ViewUser, list: string, name: string, exceptId?: string) {
  const [clash] = await tx
    .select({ id: savedViews.id })
    .from(savedViews)
    .where(
      and(
        eq(savedViews.list, list),
        eq(savedViews.ownerId, user.userId),
        sql`lower(${savedViews.name}) = lower(${name})`,
        exceptId ? sql`${savedViews.id} <> ${exceptId}` : undefined,
      ),
    );
  if (clash) throw duplicateName(name);
}

/** Runs a write that sets a name; the index catches the race two requests win past the check. */
async function withUniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, NAME_INDEX)) throw duplicateName(name);
    throw error;
  }
}

async function setDefault(tx: Tx, userId: string, list: string, viewId: string) {
  await tx
    .insert(defaultViews)
    .values({ userId, list, viewId })
    .onConflictDoUpdate({ target: [defaultViews.userId, defaultViews.list], set: { viewId } });
}

/** The owner's team stamp: their seller for a seller user, none for staff and admins. */
const ownerSellerOf = (user: ViewUser) => (user.role === 'Seller' ? user.sellerId : null);

export async function createView(db: Db, user: ViewUser, body: CreateViewInput): Promise<SavedView> {
  assertMay(user, body.list, 'view');
  if (body.scope === 'everyone') assertMayPublish(user, body.list);
  return db.transaction(async (tx) => {
    // Serialises this user's creations, so two at once cannot both pass the cap.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.userId)).for('update');
    const [owned] = await tx
      .select({ n: count() })
      .from(savedViews)
      .where(and(eq(savedViews.list, body.list), eq(savedViews.ownerId, user.userId)));
    if ((owned?.n ?? 0) >= MAX_VIEWS_PER_LIST) {
      throw new HttpError(
        409,
        `You have ${MAX_VIEWS_PER_LIST} views of this list, the most one person can keep. Delete one first.`,
        'VIEW_LIMIT',
      );
    }
    await assertNameFree(tx, user, body.list, body.name);
    const [created] = await withUniqueName(body.name, () =>
      tx
        .insert(savedViews)
        .values({
          list: body.list,
          ownerId: user.userId,
          ownerSellerId: ownerSellerOf(user),
          name: body.name,
          scope: body.scope,
          state: body.state,
        })
        .returning({ id: savedViews.id }),
    );
    const id = (created as { id: string }).id;
    if (body.makeDefault) await setDefault(tx, user.userId, body.list, id);
    return viewDto(tx, user, id);
  });
}

/** The view for a change by its owner: 404 when the user cannot see it, 403 when it is not theirs. */
async function ownView(tx: Tx, user: ViewUser, id: string, refusal: string): Promise<ViewRow> {
  // Locked first, on its own: FOR UPDATE cannot reach across the outer join of the full read.
  await tx.select({ id: savedViews.id }).from(savedViews).where(eq(savedViews.id, id)).for('update');
  const row = await findVisible(tx, user, id);
  assertMay(user, row.view.list as ViewList, 'view');
  if (row.view.ownerId !== user.userId) throw new HttpError(403, refusal, 'VIEW_READ_ONLY');
  return row;
}

export async function updateView(
  db: Db,
  user: ViewUser,
  id: string,
  body: UpdateViewInput,
): Promise<SavedView> {
  return db.transaction(async (tx) => {
    const { view } = await ownView(tx, user, id, 'This view is shared with you; save a copy to change it.');
    const list = view.list as ViewList;
    // Whatever is shared with everyone is changed only by someone who may publish; stopping sharing is not.
    if ((body.scope ?? view.scope) === 'everyone') assertMayPublish(user, list);
    if (body.name !== undefined) await assertNameFree(tx, user, list, body.name, id);
    const name = body.name ?? view.name;
    await withUniqueName(name, () =>
      tx
        .update(savedViews)
        .set({
          name,
          scope: body.scope ?? view.scope,
          state: body.state ?? view.state,
          ownerSellerId: ownerSellerOf(user),
          updatedAt: new Date(),
        })
        .where(eq(savedViews.id, id)),
    );
    return viewDto(tx, user, id);
  });
}

/** Deletes the owner's view; anyone's default that pointed at it goes with it (foreign key cascade). */
export async function deleteView(db: Db, user: ViewUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    await ownView(tx, user, id, 'This view is shared with you; only its owner can delete it.');
    await tx.delete(savedViews).where(eq(savedViews.id, id));
  });
}

/**
 * Sets the user's default view of a list (any view they may see), or clears it. A default that later
 * stops being shared with them stays stored but no longer counts: reads only ever see visible views.
 */
export async function setDefaultView(db: Db, user: ViewUser, body: SetDefaultViewBody): Promise<DefaultView> {
  assertMay(user, body.list, 'view');
  return db.transaction(async (tx) => {
    if (body.viewId === null) {
      await tx
        .delete(defaultViews)
        .where(and(eq(defaultViews.userId, user.userId), eq(defaultViews.list, body.list)));
      return { list: body.list, viewId: null };
    }
    const { view } = await findVisible(tx, user, body.viewId);
    if (view.list !== body.list) {
      throw new HttpError(400, 'That view belongs to another list.', 'VIEW_OF_ANOTHER_LIST', {
        viewId: 'That view belongs to another list.',
      });
    }
    await setDefault(tx, user.userId, body.list, view.id);
    return { list: body.list, viewId: view.id };
  });
}
