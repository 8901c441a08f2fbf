// The layer rules of the repository (issue 27 step 3). Each says which files may not import which;
// `import-graph.test.ts` checks them, and that no import cycle exists among the non-test sources.
//
// Tests (`*.test.ts(x)`) are exempt from the rules marked `exemptTests`: a test is a leaf that nothing
// imports, so it can neither put a layer into a bundle nor close a cycle, and some must cross a layer to
// drive the real counterpart (the browser's signalling client against the server, a page of each feature
// side by side, the real token service under the broker). The rules on contracts and machines bind tests
// too: nothing there needs the exemption.
import type { LayerRule } from './import-graph';

/** The folders whose imports are checked. */
export const CHECKED_FOLDERS = ['contracts', 'src', 'server'] as const;

const under =
  (...folders: string[]) =>
  (file: string) =>
    folders.some((folder) => file.startsWith(`${folder}/`));

const featureOf = (file: string) => /^src\/features\/([^/]+)\//.exec(file)?.[1];

/** The server's base folders: what every module builds on, so they import no module. */
export const SERVER_BASE_FOLDERS = [
  'server/lib',
  'server/db',
  'server/realtime',
  'server/jobs',
  'server/plugins',
];

export const LAYER_RULES: readonly LayerRule[] = [
  {
    name: 'contracts import nothing of src or server (both sides import contracts)',
    from: under('contracts'),
    to: under('src', 'server'),
  },
  {
    name: 'server imports nothing of src (shared code lives in contracts/domain)',
    from: under('server'),
    to: under('src'),
    exemptTests: true,
  },
  {
    name: 'a feature imports no other feature (shared pieces live in src/ui, src/services or src/lib)',
    from: (file) => featureOf(file) !== undefined,
    to: (file, from) => featureOf(file) !== undefined && featureOf(file) !== featureOf(from),
    exemptTests: true,
  },
  {
    // Machines are pure statecharts: adapters in src/services drive them, never the other way round.
    name: 'src/machines import no services or features',
    from: under('src/machines'),
    to: under('src/services', 'src/features'),
  },
  {
    // The shell runs services on every page; a feature is a page's code, loaded with it.
    name: 'src/services import no features',
    from: under('src/services'),
    to: under('src/features'),
    exemptTests: true,
  },
  {
    name: 'src/ui and src/lib import no features',
    from: under('src/ui', 'src/lib'),
    to: under('src/features'),
    exemptTests: true,
  },
  {
    // No allowance is needed today. Should one be (a fix that would be a large redesign), list it here as
    // `allow: [{ from, to, why }]`; the check fails once the import is gone, so the list only shrinks.
    name: 'server base folders (lib, db, realtime, jobs, plugins) import no module',
    from: under(...SERVER_BASE_FOLDERS),
    to: under('server/modules'),
    exemptTests: true,
  },
];
