// The completeness recompute as a background job (issue 26), on PGlite and PostgreSQL: a change to what
// a category requires answers at once with the task it queued, before any product changes; the job
// recomputes in batches with progress, is deduplicated while queued, is safe to run again, and its
// owner is notified.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SavedAttribute, SavedCategorySet } from '../../../contracts/attribute-admin';
import type { Product } from '../../../contracts/catalog';
import type { Task } from '../../../contracts/notifications';
import { categories, jobs, notifications, products } from '../../db/schema';
import { claimJob } from '../../jobs/queue';
import { type ApiAs, apiAs, createTestApp, json, type TestApp, testBackends } from '../../test-support';
import {
  COMPLETENESS_JOB_KIND,
  COMPLETENESS_TASK_NAME,
  completenessRecomputeHandler,
} from './completeness-job';

const API = '/api/v1/attributes';
const PRODUCTS = '/api/v1/stagingProducts';

describe.each(testBackends)('completeness recompute job on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  let parentId: string;
  let childId: string;
  let otherId: string;
  const phoneIds: string[] = [];
  let lampId: string;
  let size: number;
  let weight: number;

  beforeAll(async () => {
    // Jobs run by hand (runOnce), so each test sees the products before and after the job.
    t = await createTestApp({ backend, jobs: { enabled: false } });
    as = await apiAs(t.app);
    const db = t.database.db;
    const [parent] = await db
      .insert(categories)
      .values({ name: 'Recompute phones', slug: 'recompute-phones' })
      .returning();
    const [child] = await db
      .insert(categories)
      .values({ name: 'Recompute smart', slug: 'recompute-smart', parentId: parent!.id })
      .returning();
    const [other] = await db
      .insert(categories)
      .values({ name: 'Recompute lamps', slug: 'recompute-lamps' })
      .returning();
    parentId = parent!.id;
    childId = child!.id;
    otherId = other!.id;
    const attribute = async (code: string, categoryId: string) => {
      const response = await as('Admin', 'POST', `${API}/`, {
        code,
        label: code,
        dataType: 'STRING',
        categoryIds: [categoryId],
      });
      expect(response.statusCode, response.body).toBe(201);
      // Not required: nothing to recompute, so no task.
      expect(json<SavedAttribute>(response).taskStatus).toBeUndefined();
      return json<SavedAttribute>(response).id;
    };
    // In the sets while the products are made (a value needs its attribute in the set); each test
    // then starts from empty sets, and the values stay stored.
    size = await attribute('rc_size', parentId);
    weight = await attribute('rc_weight', otherId);
    // Five phones (parent and subcategory), one holding a size; a lamp elsewhere.
    for (const [index, categoryId] of [parentId, childId, childId, parentId, childId].entries()) {
      const response = await as('Seller', 'POST', `${PRODUCTS}/`, {
        title: `Recompute phone ${index}`,
        sku: `RC-PHONE-${index}`,
        categoryId,
        price: 10,
        inventory: 1,
        attributeValues: index === 0 ? [{ keyId: size, value: 'XL' }] : [],
      });
      expect(response.statusCode, response.body).toBe(201);
      phoneIds.push(json<Product>(response).id);
    }
    const lamp = await as('Seller', 'POST', `${PRODUCTS}/`, {
      title: 'Recompute lamp',
      sku: 'RC-LAMP',
      categoryId: otherId,
      price: 10,
      inventory: 1,
    });
    lampId = json<Product>(lamp).id;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    // Each test starts from sets without required attributes and an empty queue.
    while (await t.app.jobs.worker.runOnce()) {}
    await as('Admin', 'PATCH', `${API}/${size}`, { isRequired: false });
    await as('Admin', 'PATCH', `${API}/${weight}`, { isRequired: false });
    await as('Admin', 'PUT', `${API}/categories/${parentId}`, { attributeIds: [] });
    await as('Admin', 'PUT', `${API}/categories/${otherId}`, { attributeIds: [] });
    while (await t.app.jobs.worker.runOnce()) {}
    await t.app.db.delete(jobs);
    await t.app.db.delete(notifications);
  });

  const figures = async (id: string) => {
    const [row] = await t.app.db
      .select({ completeness: products.completeness, missing: products.missingAttributes })
      .from(products)
      .where(eq(products.id, id));
    return row;
  };
  const putSet = async (categoryId: string, attributeIds: number[]) => {
    const response = await as('Admin', 'PUT', `${API}/categories/${categoryId}`, { attributeIds });
    expect(response.statusCode, response.body).toBe(200);
    return json<SavedCategorySet>(response);
  };
  const task = async (id: string) => json<Task>(await as('Admin', 'GET', `/api/v1/tasks/${id}`));

  it('answers at once with the queued task; the products change only when the job runs', async () => {
    await as('Admin', 'PATCH', `${API}/${size}`, { isRequired: true });
    await t.app.db.delete(jobs); // that change's recompute is not this test's: the set holds no size yet
    const saved = await putSet(parentId, [size]);
    expect(saved.attributes.map((attribute) => attribute.id)).toEqual([size]);
    expect(saved.taskStatus).toMatchObject({ taskName: COMPLETENESS_TASK_NAME, status: 'Queued' });
    // The answer came before the recompute: every phone still reads complete.
    expect(await figures(phoneIds[1]!)).toEqual({ completeness: 100, missing: [] });
    expect(await task(saved.taskStatus!.taskId)).toMatchObject({ status: 'Queued', progress: 0 });

    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    expect(await task(saved.taskStatus!.taskId)).toMatchObject({ status: 'Completed', progress: 100 });
    // The parent's products and its subcategory's: the one holding a size is complete, the others not.
    expect(await figures(phoneIds[0]!)).toEqual({ completeness: 100, missing: [] });
    for (const id of phoneIds.slice(1))
      expect(await figures(id)).toEqual({ completeness: 0, missing: [size] });
    expect(await figures(lampId)).toEqual({ completeness: 100, missing: [] });
    // Its owner is notified with what it did (the task toast shows it).
    const [notice] = await t.app.db
      .select()
      .from(notifications)
      .where(eq(notifications.taskId, saved.taskStatus!.taskId));
    expect(notice).toMatchObject({
      userId: as.ids.Admin,
      status: 'Completed',
      taskName: COMPLETENESS_TASK_NAME,
      body: '5 products checked, 4 updated.',
    });
  });

  it('merges later changes into the task still queued, and one run reflects the last of them', async () => {
    // Required, but in no set yet: nothing to recompute.
    for (const id of [size, weight]) {
      const saved = json<SavedAttribute>(await as('Admin', 'PATCH', `${API}/${id}`, { isRequired: true }));
      expect(saved.taskStatus).toBeUndefined();
    }
    const first = await putSet(parentId, [size]);
    expect(first.taskStatus?.status).toBe('Queued');
    // Another category while the first recompute waits: the same task, now covering both.
    const second = await putSet(otherId, [weight]);
    expect(second.taskStatus?.taskId).toBe(first.taskStatus?.taskId);
    // The size no longer required: still the same task, which will read the data as it is then.
    const third = json<SavedAttribute>(await as('Admin', 'PATCH', `${API}/${size}`, { isRequired: false }));
    expect(third.taskStatus?.taskId).toBe(first.taskStatus?.taskId);
    expect(await t.app.db.select().from(jobs).where(eq(jobs.kind, COMPLETENESS_JOB_KIND))).toHaveLength(1);

    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    expect(await t.app.jobs.worker.runOnce()).toBe(false);
    expect(await figures(phoneIds[1]!)).toEqual({ completeness: 100, missing: [] });
    expect(await figures(lampId)).toEqual({ completeness: 0, missing: [weight] });
  });

  it('queues a new task when the change comes while a recompute is already running', async () => {
    await as('Admin', 'PATCH', `${API}/${size}`, { isRequired: true });
    await t.app.db.delete(jobs);
    const first = await putSet(parentId, [size]);
    // A worker has claimed it (it may have passed these products already).
    const claimed = await claimJob(t.app.db, {
      workerId: 'elsewhere',
      kinds: [COMPLETENESS_JOB_KIND],
      leaseSeconds: 60,
    });
    expect(claimed?.id).toBe(first.taskStatus?.taskId);
    const later = await putSet(parentId, []);
    expect(later.taskStatus?.taskId).toBeDefined();
    expect(later.taskStatus?.taskId).not.toBe(first.taskStatus?.taskId);
    // The later task reflects the later set: the size is no longer required.
    expect(await t.app.jobs.worker.runOnce()).toBe(true);
    expect(await figures(phoneIds[1]!)).toEqual({ completeness: 100, missing: [] });
  });

  it('recomputes in batches with progress, and a second run (a retry) changes nothing more', async () => {
    await as('Admin', 'PATCH', `${API}/${size}`, { isRequired: true });
    await t.app.db.delete(jobs);
    const saved = await putSet(parentId, [size]);
    const job = await claimJob(t.app.db, {
      workerId: 'test',
      kinds: [COMPLETENESS_JOB_KIND],
      leaseSeconds: 60,
    });
    expect(job?.id).toBe(saved.taskStatus?.taskId);
    const run = async () => {
      const progress: number[] = [];
      const result = await completenessRecomputeHandler(
        t.app.db,
        2,
      )({
        job: job!,
        payload: job!.payload,
        setProgress: async (value) => {
          progress.push(Math.round(value));
        },
        signal: new AbortController().signal,
      });
      return { progress, result };
    };
    // Five products, two per statement: three batches.
    const once = await run();
    expect(once.progress).toEqual([40, 80, 100]);
    expect(once.result).toMatchObject({ checked: 5, changed: 4 });
    const again = await run();
    expect(again.progress).toEqual([40, 80, 100]);
    expect(again.result).toMatchObject({ checked: 5, changed: 0 });
    for (const id of phoneIds.slice(1))
      expect(await figures(id)).toEqual({ completeness: 0, missing: [size] });
  });

  it('is only for people who may edit attributes, and queues nothing when nothing required changes', async () => {
    const refused = await as('Seller', 'PUT', `${API}/categories/${parentId}`, { attributeIds: [size] });
    expect(refused.statusCode).toBe(403);
    const plain = await putSet(otherId, [size]); // size is not required here
    expect(plain.taskStatus).toBeUndefined();
    expect(await t.app.db.select().from(jobs)).toEqual([]);
  });
});
