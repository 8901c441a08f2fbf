// A command that read a sheet ends when its work is done: the worker kept for the next read must not
// hold the process open (it did for 30 s, the idle timeout, which every demo seed paid).
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');

it('a process that read a sheet and ended the idle workers exits at once', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'idle-workers-'));
  const sheet = path.join(dir, 'rows.csv');
  await writeFile(sheet, 'sku,title\nA-1,One\nA-2,Two\n');
  const script = path.join(dir, 'read.mts');
  await writeFile(
    script,
    `import { endIdleSheetWorkers, openSheet } from ${JSON.stringify(path.join(root, 'server/lib/sheets/index.ts'))};
const sheet = await openSheet(${JSON.stringify(sheet)});
let rows = 0;
for await (const _row of sheet.rows()) rows++;
await sheet.close();
await endIdleSheetWorkers();
console.log('read', rows);
console.log('done', Date.now());
`,
  );
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), script], {
    cwd: root,
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = await new Promise<number>((resolve) => child.on('exit', () => resolve(Date.now())));
  expect(output).toContain('read 2');
  const done = Number(/done (\d+)/.exec(output)?.[1]);
  // Without endIdleSheetWorkers the idle worker's 30 s timer decides when the process may end.
  expect(exited - done).toBeLessThan(10_000);
}, 60_000);
