// The sign-in page must stay light (bench/results.json: ≤ 150 KB of gzip JS). Its budget holds only
// because the heavy libraries load on first use: axios, zod and the API layer with the first request,
// TanStack Query with the shell, the toaster with the first toast, Chakra's full recipe set with the
// shell. One static import in the wrong module would pull any of them back into the entry chunk,
// silently; this test walks the entry's static imports and names the path that does.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** Static value imports and re-exports (`import type` and dynamic `import()` excluded). */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) if (match[1]) specifiers.push(match[1]);
  return specifiers;
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  }
  return null;
}

/** Every package the entry reaches statically, with the chain of modules that reaches it. */
function packagesReachedFrom(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const here = [...chain, path.relative(root, file)];
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) {
        const local = resolveLocal(file, specifier);
        if (local) walk(local, here);
      } else if (!packages.has(specifier)) {
        packages.set(specifier, here);
      }
    }
  };
  walk(entry, []);
  return packages;
}

const entry = path.join(root, 'src/main.tsx');

describe('the entry chunk (everything the sign-in page needs to render)', () => {
  const reached = packagesReachedFrom(entry);

  it.each([
    ['zod', /^zod(\/|$)/],
    ['axios', /^axios$/],
    ['TanStack Query', /^@tanstack\//],
    ["Chakra's whole theme with every recipe", /^@chakra-ui\/react\/theme$/],
    // ~100 KB gzip: the broker adapter imports it on its first connection attempt.
    ['MQTT.js', /^mqtt(\/|$)/],
    // Browser calling (issue 6): the voice service loads on demand, and only with the call service on.
    ["Twilio's Voice SDK", /^@twilio\//],
    // Settings (issue 29): country names and ISO 4217 data load with the pages that show them.
    ['i18n-iso-countries', /^i18n-iso-countries(\/|$)/],
    ['currency-codes', /^currency-codes$/],
  ])('does not import %s statically', (_name, forbidden) => {
    const offenders = [...reached].filter(([specifier]) => forbidden.test(specifier));
    expect(offenders.map(([specifier, chain]) => `${chain.join(' → ')} → ${specifier}`)).toEqual([]);
  });

  it('does reach the pieces it does need (the walk itself works)', () => {
    expect([...reached.keys()]).toEqual(
      expect.arrayContaining(['react', '@chakra-ui/react', 'xstate', 'wouter']),
    );
  });
});
