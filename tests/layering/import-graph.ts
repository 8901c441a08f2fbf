// The import graph of the TypeScript sources and the checks over it (issue 27 step 3): which layer may
// import which, and no import cycles. Pure over `{ path → text }`, so a test can feed it a made-up tree;
// `readSources` reads the real one.
//
// Imports are read with the TypeScript scanner (`ts.preProcessFile`): static imports, `import type`,
// `export … from`, dynamic `import()`, `typeof import()` types and `require()`, but nothing in comments
// or strings. `vi.mock('…')` paths are not imports and are left out on purpose: a test mocks a module
// it (or what it tests) imports anyway, and that import is checked.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** The importing file, relative to the repository root with `/` separators. */
  from: string;
  /** The specifier as written, e.g. `../modules/auth/tokens`. */
  specifier: string;
  /** The imported file (or, if it is not a source file, the path the specifier names). */
  to: string;
  /** Whether `to` is one of the scanned sources (only those take part in cycles). */
  resolved: boolean;
}

/** A rule: files matching `from` import no file matching `to`, save the listed allowances. */
export interface LayerRule {
  name: string;
  from: (file: string) => boolean;
  to: (file: string, from: string) => boolean;
  /** Test files (`*.test.ts(x)`) may break this rule (see the rules for why). */
  exemptTests?: boolean;
  /** Known imports that break the rule for now, each with the reason it is allowed. */
  allow?: readonly Allowance[];
}

export interface Allowance {
  from: string;
  to: string;
  why: string;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const TEST = /\.test\.(ts|tsx)$/;
/** Path aliases of tsconfig.json / vite.config.ts that point into the sources. */
const ALIASES: Record<string, string> = { '@contracts/': 'contracts/', '@/': 'src/' };
const CANDIDATE_SUFFIXES = ['', '.ts', '.tsx', '.d.ts', '.mts', '/index.ts', '/index.tsx'];

export const isTest = (file: string): boolean => TEST.test(file);

/** Every source file under the given folders of `root` (skipping `node_modules`), with its text. */
export function readSources(root: string, folders: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const file = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(file);
      } else if (SOURCE.test(entry.name)) {
        sources.set(file, readFileSync(path.join(root, file), 'utf8'));
      }
    }
  };
  for (const folder of folders) walk(folder);
  return sources;
}

/** The repository path a specifier names, or null for a package import. */
function targetPath(from: string, specifier: string): string | null {
  if (specifier.startsWith('.')) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
    // A package's data file reached by a relative path (a JSON file the server bundle must inline) is a
    // package import all the same.
    return target.startsWith('node_modules/') ? null : target;
  }
  for (const [alias, folder] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) return folder + specifier.slice(alias.length);
  }
  return null;
}

function resolve(target: string, sources: ReadonlyMap<string, string>): string | null {
  const bases = [target, target.replace(/\.(m?js|jsx)$/, '')];
  for (const base of bases) {
    for (const suffix of CANDIDATE_SUFFIXES) {
      if (sources.has(base + suffix)) return base + suffix;
    }
  }
  return null;
}

/** Every import between files of the tree (package imports left out). */
export function importGraph(sources: ReadonlyMap<string, string>): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const [from, text] of sources) {
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      const target = targetPath(from, specifier);
      if (target === null) continue;
      const resolved = resolve(target, sources);
      edges.push({ from, specifier, to: resolved ?? target, resolved: resolved !== null });
    }
  }
  return edges;
}

const describeEdge = (edge: ImportEdge) => `${edge.from} imports '${edge.specifier}' (${edge.to})`;

/** One line per import that breaks a rule: the file, the import as written, and the rule. */
export function ruleViolations(edges: readonly ImportEdge[], rules: readonly LayerRule[]): string[] {
  const problems: string[] = [];
  for (const rule of rules) {
    for (const edge of edges) {
      if (!rule.from(edge.from) || !rule.to(edge.to, edge.from)) continue;
      if (rule.exemptTests && isTest(edge.from)) continue;
      if (rule.allow?.some((allowed) => allowed.from === edge.from && allowed.to === edge.to)) continue;
      problems.push(`${describeEdge(edge)}: ${rule.name}`);
    }
  }
  return problems;
}

/** Allowances that no longer match an import: they go, so the list only shrinks. */
export function staleAllowances(edges: readonly ImportEdge[], rules: readonly LayerRule[]): string[] {
  return rules.flatMap((rule) =>
    (rule.allow ?? [])
      .filter((allowed) => !edges.some((edge) => edge.from === allowed.from && edge.to === allowed.to))
      .map((allowed) => `allowance ${allowed.from} → ${allowed.to} (${rule.name}) matches no import`),
  );
}

/**
 * The import cycles among the given edges, each as the chain of imports that closes it
 * (`a.ts imports './b' (b.ts) → b.ts imports './a' (a.ts)`): one per strongly connected group of files.
 */
export function importCycles(edges: readonly ImportEdge[]): string[] {
  const next = new Map<string, ImportEdge[]>();
  for (const edge of edges) {
    if (!edge.resolved || edge.from === edge.to) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge]);
  }
  return stronglyConnected(next).map((group) => describeCycle(group, next));
}

/** Tarjan's algorithm: the groups of more than one file that import each other, directly or not. */
function stronglyConnected(next: ReadonlyMap<string, ImportEdge[]>): Set<string>[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: Set<string>[] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const { to } of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file)!, index.get(to)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.add(member);
    } while (member !== file);
    if (group.size > 1) groups.push(group);
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return groups;
}

/** One cycle through the group, found breadth-first from its first file back to that file. */
function describeCycle(group: ReadonlySet<string>, next: ReadonlyMap<string, ImportEdge[]>): string {
  const start = [...group].sort()[0]!;
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const edge of next.get(queue[i]!) ?? []) {
      if (!group.has(edge.to) || via.has(edge.to)) continue;
      via.set(edge.to, edge);
      if (edge.to === start) return chain(start, via);
      queue.push(edge.to);
    }
  }
  return [...group].join(' ↔ '); // unreachable: a strongly connected group always leads back
}

function chain(start: string, via: ReadonlyMap<string, ImportEdge>): string {
  const steps: ImportEdge[] = [];
  let at = start;
  do {
    const edge = via.get(at)!;
    steps.unshift(edge);
    at = edge.from;
  } while (at !== start);
  return `import cycle: ${steps.map(describeEdge).join(' → ')}`;
}
