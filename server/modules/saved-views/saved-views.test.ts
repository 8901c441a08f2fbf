// Saved views API on PGlite and PostgreSQL: every route, each role, the scopes, publishing, names,
// read-only shared views, defaults, the cap and bad query trees.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryTree } from '../../../contracts/query-tree';
import {
  type DefaultView,
  MAX_VIEWS_PER_LIST,
  type SavedView,
  type ViewState,
} from '../../../contracts/saved-views';
import { savedViews, sellers, userPermissions, users } from '../../db/schema';
import { hashPassword } from '../../lib/passwords';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  DEMO_PASSWORD_FOR_TESTS,
  demoEmails,
  json,
  signInAs,
  type TestApp,
  testBackends,
} from '../../test-support';

const API = '/api/v1/savedViews';
const LIST = 'staging-products';
const STAGING = '/products/staging-products';

const stateOf = (extra: Partial<ViewState> = {}): ViewState => ({
  query: { combinator: 'and', children: [{ field: 'status', op: 'anyOf', value: ['draft'] }] },
  search: '',
  columns: ['title', 'sku', 'status'],
  sort: 'updatedAt',
  order: 'desc',
  pageSize: 25,
  ...extra,
});

/** A tree whose groups nest `depth` levels (the root is level 1). */
function nested(depth: number): QueryTree {
  let tree: QueryTree = { combinator: 'and', children: [{ field: 'sku', op: 'contains', value: 'a' }] };
  for (let level = 1; level < depth; level++) tree = { combinator: 'or', children: [tree] };
  return tree;
}

type Who = 'Admin' | 'Staff' | 'Seller' | 'Kyc' | 'Blocked' | 'Mate' | 'Outsider';

describe.each(testBackends)('saved views API on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  /** Tokens of the users this test adds: another user of the demo seller, and staff without the list. */
  const extra: Partial<Record<Who, { token: string; userId: string }>> = {};

  beforeAll(async () => {
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.database.db;
    const [seller] = await db
      .select({ id: sellers.id })
      .from(sellers)
      .where(eq(sellers.email, demoEmails.Seller));
    const passwordHash = await hashPassword(DEMO_PASSWORD_FOR_TESTS);
    await db.insert(users).values([
      {
        email: 'mate@views.test',
        passwordHash,
        firstName: 'Mira',
        lastName: 'Mate',
        role: 'Seller',
        sellerId: seller!.id,
      },
      { email: 'outsider@views.test', passwordHash, firstName: 'Olu', lastName: 'Outsider', role: 'Staff' },
    ]);
    extra.Mate = await signInAs(t.app, 'mate@views.test');
    extra.Outsider = await signInAs(t.app, 'outsider@views.test');
    // Staff who may not open the list at all.
    await db.insert(userPermissions).values({ userId: extra.Outsider.userId, route: STAGING, actions: [] });
    t.app.permissionCache.forget();
  });
  afterAll(() => t.close());

  const call = (
    who: Who,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    url: string,
    payload?: object,
  ) => {
    const added = extra[who];
    if (!added) return as(who as Exclude<Who, 'Mate' | 'Outsider'>, method, url, payload);
    return t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${added.token}` } });
  };
  const idOf = (who: Who) => extra[who]?.userId ?? as.ids[who as Exclude<Who, 'Mate' | 'Outsider'>];
  const create = (who: Who, body: Record<string, unknown>) =>
    call(who, 'POST', `${API}/`, { list: LIST, state: stateOf(), ...body });
  const created = async (who: Who, body: Record<string, unknown>) => {
    const response = await create(who, body);
    expect(response.statusCode, response.body).toBe(201);
    return json<SavedView>(response);
  };
  const list = async (who: Who) => {
    const response = await call(who, 'GET', `${API}/?list=${LIST}`);
    expect(response.statusCode, response.body).toBe(200);
    return json<{ result: SavedView[] }>(response).result;
  };
  const names = async (who: Who) => (await list(who)).map((view) => view.name);
  const setDefault = (who: Who, viewId: string | null) =>
    call(who, 'PUT', `${API}/default`, { list: LIST, viewId });

  it('saves a private view for its owner, who sees it as theirs to change', async () => {
    const view = await created('Admin', { name: '  Admin drafts  ' });
    expect(view).toMatchObject({
      list: LIST,
      name: 'Admin drafts',
      scope: 'private',
      state: stateOf(),
      owner: { id: as.ids.Admin, name: 'Asha Admin' },
      editable: true,
      isDefault: false,
    });
    expect(Number.isNaN(Date.parse(view.updatedAt))).toBe(false);
    expect(await list('Admin')).toContainEqual(view);
    // Private: nobody else sees it, not even the other admins' colleagues.
    expect(await names('Staff')).not.toContain('Admin drafts');
    expect(await names('Seller')).not.toContain('Admin drafts');
  });

  it('keeps the query as sent: conditions without values and fields unknown today', async () => {
    const query: QueryTree = {
      combinator: 'or',
      children: [
        { field: 'attr.not_yet_defined', op: 'contains' },
        { combinator: 'and', children: [{ field: 'price', op: 'between', value: [1, 9] }] },
      ],
    };
    const view = await created('Staff', { name: 'Half-built', state: stateOf({ query, search: ' red ' }) });
    expect(view.state.query).toEqual(query);
    expect(view.state.search).toBe('red');
  });

  it('refuses a query tree nested deeper than five levels, and other broken states', async () => {
    expect(
      (await create('Staff', { name: 'Five deep', state: stateOf({ query: nested(5) }) })).statusCode,
    ).toBe(201);
    const tooDeep = await create('Staff', { name: 'Six deep', state: stateOf({ query: nested(6) }) });
    expect(tooDeep.statusCode).toBe(400);
    expect(json(tooDeep)).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/at most 5/),
    });
    const badOp = await create('Staff', {
      name: 'Bad op',
      state: stateOf({
        query: { combinator: 'and', children: [{ field: 'sku', op: 'drop table' }] } as never,
      }),
    });
    expect(badOp.statusCode).toBe(400);
    expect(
      (await create('Staff', { name: 'Huge page', state: stateOf({ pageSize: 5000 }) })).statusCode,
    ).toBe(400);
    expect((await create('Staff', { name: '' })).statusCode).toBe(400);
    expect((await create('Staff', { name: 'Elsewhere', list: 'orders-of-the-moon' })).statusCode).toBe(400);
    expect((await call('Staff', 'GET', `${API}/?list=nope`)).statusCode).toBe(400);
    expect(await names('Staff')).not.toContain('Six deep');
    // A state change is checked the same way.
    const view = (await list('Staff')).find((v) => v.name === 'Five deep') as SavedView;
    const patch = await call('Staff', 'PATCH', `${API}/${view.id}`, { state: stateOf({ query: nested(6) }) });
    expect(patch.statusCode).toBe(400);
  });

  it("shares a seller's team view with the seller's other users only", async () => {
    const view = await created('Seller', { name: 'Our drafts', scope: 'team' });
    await created('Seller', { name: 'Sunil only' });
    const mates = await list('Mate');
    expect(mates.find((v) => v.id === view.id)).toMatchObject({
      name: 'Our drafts',
      editable: false,
      owner: { id: as.ids.Seller, name: 'Sunil Seller' },
    });
    expect(mates.map((v) => v.name)).not.toContain('Sunil only');
    // Another seller, staff and admins never see it.
    for (const who of ['Kyc', 'Staff', 'Admin'] as const)
      expect(await names(who)).not.toContain('Our drafts');
  });

  it("shares staff and admins' team views among the back office, never with sellers", async () => {
    await created('Staff', { name: 'Review queue', scope: 'team' });
    expect(await names('Admin')).toContain('Review queue');
    for (const who of ['Seller', 'Mate', 'Kyc'] as const)
      expect(await names(who)).not.toContain('Review queue');
  });

  it('shares with everyone only for those who may publish the list', async () => {
    const everyone = await created('Staff', { name: 'Live with gaps', scope: 'everyone' });
    for (const who of ['Admin', 'Seller', 'Mate', 'Kyc'] as const) {
      expect((await list(who)).find((v) => v.id === everyone.id)).toMatchObject({ editable: false });
    }
    const refused = await create('Seller', { name: 'For all', scope: 'everyone' });
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toEqual({
      message: 'Only users who may publish Staging Products can share a view with everyone.',
      code: 'FORBIDDEN',
      fields: { scope: 'Only users who may publish Staging Products can share a view with everyone.' },
    });
    // Nor by changing the scope of one of their own.
    const own = await created('Seller', { name: 'Mine to share' });
    const patch = await call('Seller', 'PATCH', `${API}/${own.id}`, { scope: 'everyone' });
    expect(patch.statusCode).toBe(403);
    expect(await names('Kyc')).not.toContain('Mine to share');
    // Admins publish too.
    expect((await create('Admin', { name: 'Admin for all', scope: 'everyone' })).statusCode).toBe(201);
  });

  it('lets an owner who lost publish stop sharing with everyone, not change what everyone sees', async () => {
    const view = await created('Staff', { name: 'Was public', scope: 'everyone' });
    const db = t.database.db;
    await db
      .insert(userPermissions)
      .values({ userId: as.ids.Staff, route: STAGING, actions: ['view', 'create', 'edit'] });
    t.app.permissionCache.forget();
    try {
      expect((await call('Staff', 'PATCH', `${API}/${view.id}`, { name: 'Renamed public' })).statusCode).toBe(
        403,
      );
      const withdrawn = await call('Staff', 'PATCH', `${API}/${view.id}`, { scope: 'private' });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(json<SavedView>(withdrawn).scope).toBe('private');
      expect(await names('Seller')).not.toContain('Was public');
    } finally {
      await db.delete(userPermissions).where(eq(userPermissions.userId, as.ids.Staff));
      t.app.permissionCache.forget();
    }
  });

  it('needs view permission on the list, and is closed to a blocked seller', async () => {
    const listing = await call('Outsider', 'GET', `${API}/?list=${LIST}`);
    expect(listing.statusCode).toBe(403);
    expect(json(listing)).toEqual({
      message: 'You do not have permission to view Staging Products.',
      code: 'FORBIDDEN',
    });
    expect((await create('Outsider', { name: 'Sneaky' })).statusCode).toBe(403);
    expect((await call('Outsider', 'PUT', `${API}/default`, { list: LIST, viewId: null })).statusCode).toBe(
      403,
    );
    const blocked = await call('Blocked', 'GET', `${API}/?list=${LIST}`);
    expect(blocked.statusCode).toBe(403);
    expect(json(blocked)).toMatchObject({ code: 'SELLER_BLOCKED' });
    expect((await t.app.inject({ method: 'GET', url: `${API}/?list=${LIST}` })).statusCode).toBe(401);
  });

  it('keeps names unique per owner and list, whatever their case', async () => {
    await created('Seller', { name: 'Red phones' });
    const duplicate = await create('Seller', { name: 'RED PHONES', scope: 'team' });
    expect(duplicate.statusCode).toBe(409);
    expect(json(duplicate)).toEqual({
      message: 'You already have a view called "RED PHONES".',
      code: 'DUPLICATE_VIEW_NAME',
      fields: { name: 'You already have a view called "RED PHONES".' },
    });
    // Someone else may use the name.
    await created('Mate', { name: 'Red phones' });
    // Renaming onto another of one's views clashes; changing the case of its own name does not.
    const blue = await created('Seller', { name: 'Blue phones' });
    const clash = await call('Seller', 'PATCH', `${API}/${blue.id}`, { name: 'red Phones' });
    expect(clash.statusCode).toBe(409);
    expect(json(clash)).toMatchObject({ fields: { name: expect.any(String) } });
    const recased = await call('Seller', 'PATCH', `${API}/${blue.id}`, { name: 'BLUE phones' });
    expect(recased.statusCode, recased.body).toBe(200);
    expect(json<SavedView>(recased).name).toBe('BLUE phones');
  });

  it('lets the owner rename, re-scope and replace the state of a view', async () => {
    const view = await created('Seller', { name: 'To change' });
    const state = stateOf({ columns: ['title'], sort: 'price', order: 'asc', pageSize: 100, search: 'usb' });
    const response = await call('Seller', 'PATCH', `${API}/${view.id}`, {
      name: 'Changed',
      scope: 'team',
      state,
    });
    expect(response.statusCode, response.body).toBe(200);
    const changed = json<SavedView>(response);
    expect(changed).toMatchObject({ id: view.id, name: 'Changed', scope: 'team', state, editable: true });
    expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(view.updatedAt));
    expect((await list('Mate')).find((v) => v.id === view.id)?.state).toEqual(state);
    // Only what is sent changes.
    const renamed = json<SavedView>(
      await call('Seller', 'PATCH', `${API}/${view.id}`, { name: 'Changed again' }),
    );
    expect(renamed).toMatchObject({ scope: 'team', state });
  });

  it("keeps someone else's view read-only, and unseen views out of reach", async () => {
    const team = await created('Seller', { name: 'Team only', scope: 'team' });
    const secret = await created('Seller', { name: 'Secret' });
    const readOnly = await call('Mate', 'PATCH', `${API}/${team.id}`, { name: 'Hijacked' });
    expect(readOnly.statusCode).toBe(403);
    expect(json(readOnly)).toEqual({
      message: 'This view is shared with you; save a copy to change it.',
      code: 'VIEW_READ_ONLY',
    });
    const noDelete = await call('Mate', 'DELETE', `${API}/${team.id}`);
    expect(noDelete.statusCode).toBe(403);
    expect(json(noDelete)).toMatchObject({ code: 'VIEW_READ_ONLY' });
    // Views they cannot see answer 404, like ids that never existed.
    for (const [who, id] of [
      ['Mate', secret.id],
      ['Kyc', team.id],
      ['Admin', team.id],
      ['Staff', '6c1f4a52-1a2b-4c3d-8e9f-0a1b2c3d4e5f'],
    ] as const) {
      const patch = await call(who, 'PATCH', `${API}/${id}`, { name: 'Mine now' });
      expect(patch.statusCode, `${who} PATCH`).toBe(404);
      expect(json(patch)).toMatchObject({ code: 'VIEW_NOT_FOUND' });
      expect((await call(who, 'DELETE', `${API}/${id}`)).statusCode, `${who} DELETE`).toBe(404);
      expect((await setDefault(who, id)).statusCode, `${who} default`).toBe(404);
    }
    expect((await call('Seller', 'DELETE', `${API}/not-a-uuid`)).statusCode).toBe(400);
    expect((await list('Seller')).find((v) => v.id === team.id)?.name).toBe('Team only');
  });

  it('lists own views first, then shared ones, each by name', async () => {
    await created('Kyc', { name: 'zebra' });
    await created('Kyc', { name: 'Apple' });
    await created('Kyc', { name: 'mango' });
    const views = await list('Kyc');
    const own = views.filter((v) => v.editable).map((v) => v.name);
    expect(own).toEqual(['Apple', 'mango', 'zebra']);
    const firstShared = views.findIndex((v) => !v.editable);
    expect(firstShared).toBe(own.length);
    const shared = views.slice(firstShared).map((v) => v.name.toLowerCase());
    expect(shared).toEqual([...shared].sort());
  });

  it('keeps one default per user and list, set on creation or later, and cleared on request', async () => {
    const team = await created('Seller', { name: 'Default for two', scope: 'team' });
    const first = await created('Seller', { name: 'Seller default', makeDefault: true });
    expect(first.isDefault).toBe(true);
    // The mate picks the shared one: defaults are per user.
    const picked = await setDefault('Mate', team.id);
    expect(picked.statusCode, picked.body).toBe(200);
    expect(json<DefaultView>(picked)).toEqual({ list: LIST, viewId: team.id });
    const defaultsOf = async (who: Who) => (await list(who)).filter((v) => v.isDefault).map((v) => v.name);
    expect(await defaultsOf('Mate')).toEqual(['Default for two']);
    expect(await defaultsOf('Seller')).toEqual(['Seller default']);
    // A new default replaces the old one.
    expect((await setDefault('Seller', team.id)).statusCode).toBe(200);
    expect(await defaultsOf('Seller')).toEqual(['Default for two']);
    const made = await created('Seller', { name: 'Newest default', makeDefault: true });
    expect(made.isDefault).toBe(true);
    expect(await defaultsOf('Seller')).toEqual(['Newest default']);
    // Cleared.
    const cleared = await setDefault('Seller', null);
    expect(json<DefaultView>(cleared)).toEqual({ list: LIST, viewId: null });
    expect(await defaultsOf('Seller')).toEqual([]);
    expect(await defaultsOf('Mate')).toEqual(['Default for two']);
    // Everyone views may be a default too.
    const everyone = (await list('Kyc')).find((v) => v.scope === 'everyone') as SavedView;
    expect((await setDefault('Kyc', everyone.id)).statusCode).toBe(200);
    expect(await defaultsOf('Kyc')).toEqual([everyone.name]);
  });

  it('drops a default when its view is deleted or stops being shared with the user', async () => {
    const shared = await created('Seller', { name: 'Shared then not', scope: 'team' });
    const gone = await created('Seller', { name: 'Deleted soon', scope: 'team' });
    expect((await setDefault('Mate', shared.id)).statusCode).toBe(200);
    const narrowed = await call('Seller', 'PATCH', `${API}/${shared.id}`, { scope: 'private' });
    expect(narrowed.statusCode).toBe(200);
    expect((await list('Mate')).filter((v) => v.isDefault)).toEqual([]);

    expect((await setDefault('Mate', gone.id)).statusCode).toBe(200);
    expect((await setDefault('Seller', gone.id)).statusCode).toBe(200);
    const deleted = await call('Seller', 'DELETE', `${API}/${gone.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    for (const who of ['Seller', 'Mate'] as const) {
      expect(
        (await list(who)).filter((v) => v.isDefault),
        who,
      ).toEqual([]);
      expect((await list(who)).map((v) => v.id)).not.toContain(gone.id);
    }
    expect((await call('Seller', 'DELETE', `${API}/${gone.id}`)).statusCode).toBe(404);
  });

  it(`stops at ${MAX_VIEWS_PER_LIST} views per user and list`, async () => {
    const db = t.database.db;
    const ownerId = idOf('Outsider');
    // The outsider may see the list again, and already has the most views one may keep.
    await db.delete(userPermissions).where(eq(userPermissions.userId, ownerId));
    t.app.permissionCache.forget();
    await db.insert(savedViews).values(
      Array.from({ length: MAX_VIEWS_PER_LIST - 1 }, (_, index) => ({
        list: LIST,
        ownerId,
        name: `Bulk ${index}`,
        state: stateOf(),
      })),
    );
    expect((await create('Outsider', { name: 'The last one' })).statusCode).toBe(201);
    const over = await create('Outsider', { name: 'One too many' });
    expect(over.statusCode).toBe(409);
    expect(json(over)).toMatchObject({ code: 'VIEW_LIMIT', message: expect.stringContaining('Delete one') });
    // All of them are listed, own ones first.
    const views = await list('Outsider');
    expect(views.filter((v) => v.editable)).toHaveLength(MAX_VIEWS_PER_LIST);
    expect(views.slice(0, MAX_VIEWS_PER_LIST).every((v) => v.editable)).toBe(true);
    // After deleting one, there is room again.
    expect((await call('Outsider', 'DELETE', `${API}/${views[0]!.id}`)).statusCode).toBe(204);
    expect((await create('Outsider', { name: 'One too many' })).statusCode).toBe(201);
  });

  it('answers two creations of one name at once with one view and one 409', async () => {
    const answers = await Promise.all([
      create('Admin', { name: 'Raced' }),
      create('Admin', { name: 'raced' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    expect((await names('Admin')).filter((n) => n.toLowerCase() === 'raced')).toHaveLength(1);
  });
});
