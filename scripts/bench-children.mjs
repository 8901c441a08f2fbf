// What every benchmark needs of its child processes: tracking them so the bench's watchdog can kill
// whatever still runs, an environment that never reaches the caller's own services, and starting the
// real server (`scripts/start.mjs`, the built SPA) until it answers /api/health.
import { spawn } from 'node:child_process';
import path from 'node:path';

const children = new Set();

/** Kills whatever the bench still runs (seed commands, servers, brokers): for the bench's watchdog. */
export function stopChildren() {
  for (const child of children) child.kill('SIGKILL');
}

export function track(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** The bench's own settings: never the caller's database, data dir, external broker or Redis. */
export function childEnv(env) {
  const {
    DATABASE_URL: _url,
    DATA_DIR: _dir,
    MQTT_URL: _mqtt,
    MQTT_WS_URL: _mqttWs,
    REDIS_URL: _redis,
    ...rest
  } = process.env;
  return { ...rest, ...env };
}

/**
 * Starts the real server on 127.0.0.1:`port` with `env` and waits (≤ 60 s) until it is healthy.
 * Answers its pid, its health answer and `stop()` (SIGTERM, then SIGKILL after 10 s).
 */
export async function startServer(root, env, port) {
  const child = track(
    spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: childEnv({ ...env, PORT: String(port), HOST: '127.0.0.1', SKIP_BUILD: 'true', LOG_LEVEL: 'warn' }),
      stdio: 'ignore',
    }),
  );
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await new Promise((resolve) => child.on('exit', resolve));
    clearTimeout(killer);
  };
  for (let i = 0; i < 600; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return { pid: child.pid, health: await response.json(), stop };
    } catch {}
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error('the server did not become healthy within 60 s');
}
