// `npm run bench -- --compare`: every figure of a run more than 25 % worse than the committed
// bench/results.json (issue 26: the catalogue's nested query went from p95 77 to 268 ms unnoticed).
// A figure is a latency, a duration, a size or a memory figure (worse when higher), a rate (worse when
// lower), or a count of failures, losses or duplicates (worse when higher; any from 0 is worse).
// Targets, goals, counts of rows and the machine's description are not figures.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export const DEFAULT_PERCENT = 25;

const NOT_FIGURES = /target|goal|^machine$|^measuredAt$|^loadAverage/i;
const HIGHER_IS_WORSE = [
  /^(p\d+|max|latencyP\d+|ms)$/,
  /Ms$/,
  /Mb$/,
  /Bytes$/,
  /CpuSeconds$/,
  /^drainSeconds$/,
];
const LOWER_IS_WORSE = [/PerSecond$/];
const FAULTS =
  /^(failures|failed|lost|duplicated|missed|droppedConnections|clientsWith(Loss|Duplicates)|deliveredToWrongClient|publishErrors)$/;

/** 'higher' or 'lower' (which way is worse) for a figure's key, or null when it is no figure. */
export function figureKind(key) {
  if (NOT_FIGURES.test(key)) return null;
  if (FAULTS.test(key)) return 'fault';
  if (HIGHER_IS_WORSE.some((pattern) => pattern.test(key))) return 'higher';
  if (LOWER_IS_WORSE.some((pattern) => pattern.test(key))) return 'lower';
  return null;
}

/**
 * The figures of `current` more than `percent` % worse than the same figure in `baseline`, among the
 * `sections` (top-level keys) given, or all of them. Figures only one side has are not compared.
 */
export function compareResults(baseline, current, { sections, percent = DEFAULT_PERCENT } = {}) {
  const worse = [];
  const walk = (before, after, trail) => {
    if (after === null || before === null || typeof after !== 'object' || typeof before !== 'object') return;
    for (const [key, value] of Object.entries(after)) {
      if (NOT_FIGURES.test(key)) continue;
      const old = before[key];
      const path = [...trail, key];
      if (typeof value === 'object') {
        walk(old, value, path);
        continue;
      }
      if (typeof value !== 'number' || typeof old !== 'number') continue;
      const kind = figureKind(key);
      if (!kind) continue;
      const limit = 1 + percent / 100;
      const isWorse =
        kind === 'lower'
          ? value * limit < old
          : kind === 'fault'
            ? value > old && (old === 0 || value > old * limit)
            : value > old * limit && value > old;
      if (isWorse) {
        const change = old === 0 ? null : Math.round(((value - old) / old) * 1000) / 10;
        worse.push({ path: path.join('.'), before: old, after: value, change });
      }
    }
  };
  for (const section of sections ?? Object.keys(current)) {
    if (section === 'machine' || section === 'measuredAt') continue;
    walk(baseline?.[section], current?.[section], [section]);
  }
  return worse;
}

/** bench/results.json as committed (git HEAD), or null outside a git checkout. */
export function committedResults(root) {
  try {
    const text = execFileSync('git', ['show', 'HEAD:bench/results.json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A results file, or an error naming it. */
export function readResults(file) {
  if (!existsSync(file)) throw new Error(`bench --compare: no results file at ${file}`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Prints the comparison; returns the process's exit code (1 when any figure is worse). */
export function reportComparison(worse, { percent = DEFAULT_PERCENT, sections, baselineName }) {
  const scope = sections ? sections.join(', ') : 'every section';
  if (worse.length === 0) {
    console.info(
      `\nbench --compare: no figure of ${scope} is more than ${percent} % worse than ${baselineName}.`,
    );
    return 0;
  }
  console.error(
    `\nbench --compare: ${worse.length} figure(s) of ${scope} more than ${percent} % worse than ${baselineName}:`,
  );
  for (const { path, before, after, change } of worse) {
    console.error(
      `  ${path}: ${before} → ${after}${change === null ? '' : ` (${change > 0 ? '+' : ''}${change} %)`}`,
    );
  }
  return 1;
}
