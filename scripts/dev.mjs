// `npm run dev`: the API server under `tsx watch` (restarts on server changes) on API_PORT, and Vite's
// dev server with hot reload on PORT, proxying /api, /mqtt and /engine.io to the API server.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '3000';
const apiPort = process.env.API_PORT ?? '3001';
const children = [
  spawn(
    process.execPath,
    ['node_modules/tsx/dist/cli.mjs', 'watch', '--clear-screen=false', 'server/main.ts'],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        PORT: apiPort,
        PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`,
      },
    },
  ),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--port', port, '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
