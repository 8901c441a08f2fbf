// The supervisor `npm start` runs (issue 26): a small parent process that runs the server as its child,
// with the same node flags, and
// - forwards SIGINT/SIGTERM/SIGHUP to it, waits for it to close the database cleanly and exits with its
//   exit code;
// - restarts it after a crash of any cause (an exit code other than 0, or a signal it did not send),
//   logging the reason, after a delay that doubles with each crash that follows a short run;
// - gives up, with a message, after RESTART.fastFailures crashes in a row, each within RESTART.fastMs
//   of its start (30 s: a boot on a busy machine can take that long), rather than looping forever on
//   a server that cannot boot (a port in use, a broken data dir).
// If the supervisor itself is killed outright (SIGKILL), the child notices its IPC channel close and
// stops cleanly by itself (supervised-child.mjs).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESTART = { fastMs: 30_000, fastFailures: 5, firstDelayMs: 500, maxDelayMs: 30_000 };

const childPreload = fileURLToPath(new URL('./supervised-child.mjs', import.meta.url));
const log = (message) => console.error(`[supervisor ${new Date().toISOString()}] ${message}`);

function reasonOf(code, signal) {
  if (signal) return `it was killed by ${signal}`;
  if (code === 134) return 'it exited with code 134 (aborted: often the JavaScript heap out of memory)';
  return `it exited with code ${code}`;
}

/** Runs `entry` (a server module) as a supervised child until a signal stops it; never returns. */
export function supervise(entry, restart = RESTART) {
  let child;
  let stopping = null;
  let fastFailures = 0;
  let delay = restart.firstDelayMs;
  let timer;

  const start = () => {
    const startedAt = Date.now();
    child = spawn(process.execPath, [...process.execArgv, '--import', childPreload, entry], {
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    });
    child.on('exit', (code, signal) => {
      child = undefined;
      if (stopping) {
        // The server's own exit code after a clean close; 128 + n if the signal ended it anyway.
        process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
      }
      if (code === 0 && !signal) {
        log('the server exited by itself (code 0); stopping.');
        process.exit(0);
      }
      const ranMs = Date.now() - startedAt;
      if (ranMs < restart.fastMs) fastFailures++;
      else {
        fastFailures = 1;
        delay = restart.firstDelayMs;
      }
      if (fastFailures >= restart.fastFailures) {
        log(
          `the server stopped: ${reasonOf(code, signal)}, for the ${fastFailures}th time in a row within ` +
            `${restart.fastMs / 1000} s of its start; not restarting it. Its output above says why.`,
        );
        process.exit(typeof code === 'number' && code !== 0 ? code : 1);
      }
      log(
        `the server stopped: ${reasonOf(code, signal)} after ${(ranMs / 1000).toFixed(1)} s; restarting it in ${delay} ms.`,
      );
      timer = setTimeout(start, delay);
      delay = Math.min(delay * 2, restart.maxDelayMs);
    });
  };

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      stopping = signal;
      clearTimeout(timer);
      if (child) child.kill(signal);
      else process.exit(0); // between a crash and its restart: nothing to close
    });
  }
  start();
}
