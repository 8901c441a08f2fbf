// The layering check of `npm test` (issue 27 step 3): the real sources keep the layer rules of
// rules.ts and hold no import cycle. A failure names each offending file and import.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  importCycles,
  importGraph,
  isTest,
  readSources,
  ruleViolations,
  staleAllowances,
} from './import-graph';
import { CHECKED_FOLDERS, LAYER_RULES } from './rules';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const edges = importGraph(readSources(root, CHECKED_FOLDERS));

describe('the import graph of contracts/, src/ and server/', () => {
  it('is read whole: hundreds of files, every relative import of a source resolved', () => {
    expect(new Set(edges.map((edge) => edge.from)).size).toBeGreaterThan(500);
    // Test files may import fixtures outside the checked folders (tests/csv.ts); sources may not.
    expect(edges.filter((edge) => !edge.resolved && !isTest(edge.from))).toEqual([]);
  });

  it('keeps every layer rule', () => {
    expect(ruleViolations(edges, LAYER_RULES)).toEqual([]);
  });

  it('lists no allowance that no import needs any more', () => {
    expect(staleAllowances(edges, LAYER_RULES)).toEqual([]);
  });

  it('has no import cycle among the non-test sources', () => {
    expect(importCycles(edges.filter((edge) => !isTest(edge.from)))).toEqual([]);
  });
});
