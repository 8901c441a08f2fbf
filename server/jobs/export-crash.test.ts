// FAULT test (issue 4): kill the real server with SIGKILL in the middle of an export, start it again
// on the same data dir, and the export still finishes — notified exactly once, in the database and on
// the broker. Everything runs on 127.0.0.1 with a temporary DATA_DIR; bounded well under 90 s.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDownloadPath } from '../../contracts/exports';
import type { NotificationList, NotificationMessage, Task } from '../../contracts/notifications';
import type { SellerList } from '../../contracts/sellers';
import { api, childEnv, run, type Server, signIn, startServer, stop, until } from '../test-process';

// Enough sellers that an export takes a few seconds on PGlite: long enough to be caught half-way and for
// the subscriber to connect to the restarted server before the second attempt ends.
const SELLERS = 50_000;

describe('an export survives a server crash', () => {
  let dataDir: string;
  const servers: Server[] = [];
  let subscriber: mqtt.MqttClient | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mp-crash-'));
    // The seed command prepares the data dir as a start would (migrations, demo accounts) and adds sellers.
    await run(['server/seed/cli.ts', '--sellers', String(SELLERS)], childEnv(dataDir));
  }, 80_000);

  afterAll(async () => {
    await subscriber?.endAsync(true);
    for (const server of servers) await stop(server, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is picked up after the restart, completes, and is notified exactly once', async () => {
    // 1. First server: start an export and kill the server half-way through it.
    const first = await startServer(dataDir);
    servers.push(first);
    const admin = await signIn(first.base);
    const { taskStatus } = await api<{ taskStatus: { taskId: string } }>(
      first.base,
      admin.token,
      '/api/v1/exports/sellers',
      { method: 'POST', body: JSON.stringify({ format: 'csv' }) },
    );
    const taskId = taskStatus.taskId;
    const halfway = await until(
      'the export to be under way',
      async () => {
        const task = await api<Task>(first.base, admin.token, `/api/v1/tasks/${taskId}`);
        if (task.status === 'Completed')
          throw new Error('the export finished before it could be interrupted');
        return task.progress > 0 ? task : undefined;
      },
      20_000,
    );
    expect(halfway).toMatchObject({ status: 'Running', attempts: 1 });
    await stop(first, 'SIGKILL');
    // Nothing stored yet: the file is written in the instance's scratch space and stored once whole.
    expect(existsSync(path.join(dataDir, 'files', 'exports', `${taskId}.csv`))).toBe(false);

    // 2. Second server on the same data dir: subscribe as the admin, then wait for the job to finish.
    const second = await startServer(dataDir);
    servers.push(second);
    const again = await signIn(second.base);
    subscriber = await mqtt.connectAsync(`${second.base.replace('http', 'ws')}/mqtt`, {
      username: again.userId,
      password: again.token,
      reconnectPeriod: 0,
      clientId: `crash_test_${Date.now()}`,
    });
    const messages: NotificationMessage[] = [];
    subscriber.on('message', (_topic, payload) => messages.push(JSON.parse(payload.toString())));
    await subscriber.subscribeAsync(`mp_${again.userId}_message`, { qos: 2 });
    const beforeDone = await api<Task>(second.base, again.token, `/api/v1/tasks/${taskId}`);
    expect(beforeDone.status, 'the export finished before the subscriber was listening').not.toBe(
      'Completed',
    );

    const done = await until(
      'the export to complete after the restart',
      async () => {
        const task = await api<Task>(second.base, again.token, `/api/v1/tasks/${taskId}`);
        if (task.status === 'Failed') throw new Error(`the export failed: ${task.error}`);
        return task.status === 'Completed' ? task : undefined;
      },
      40_000,
    );
    expect(done).toMatchObject({ progress: 100, attempts: 2 });
    await until('the completion message', async () => (messages.length ? true : undefined), 5_000);
    // A duplicate would come on the same topic before any later message: a second (tiny) export's
    // completion is the barrier after which it can no longer arrive.
    const barrier = await api<{ taskStatus: { taskId: string } }>(
      second.base,
      again.token,
      '/api/v1/exports/sellers',
      { method: 'POST', body: JSON.stringify({ format: 'csv', query: 'no seller is called this' }) },
    );
    await until(
      'the barrier export to be announced',
      async () =>
        messages.some((message) => message.taskId === barrier.taskStatus.taskId) ? true : undefined,
      30_000,
    );
    const aboutTask = messages.filter((message) => message.taskId === taskId);
    expect(aboutTask).toHaveLength(1);
    expect(aboutTask[0]).toMatchObject({
      type: 'NOTIFICATION',
      taskName: 'Sellers export',
      status: 'Completed',
      link: exportDownloadPath(taskId),
    });

    const stored = await api<NotificationList>(
      second.base,
      again.token,
      '/api/v1/localEventMessage/listEventMessages?limit=100',
    );
    expect(stored.data.result.filter((n) => n.taskId === taskId)).toHaveLength(1);

    // The file is whole: every seller once, and no temporary file of the killed attempt is left.
    const sellers = await api<SellerList>(second.base, again.token, '/api/v1/sellers/listSellers?limit=1');
    const file = await fetch(`${second.base}${exportDownloadPath(taskId)}`, {
      headers: { authorization: `Bearer ${again.token}` },
    });
    expect(file.status).toBe(200);
    const lines = (await file.text()).split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(sellers.count + 1);
    expect((await readdir(path.join(dataDir, 'files', 'exports'))).sort()).toEqual(
      [`${taskId}.csv`, `${barrier.taskStatus.taskId}.csv`].sort(),
    );
    expect(await readdir(path.join(dataDir, 'tmp', 'exports'))).toEqual([]);
  }, 80_000);
});
