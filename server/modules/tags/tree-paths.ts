// The tag tree's materialized paths and keys. A node's path is the seqs from its root down to itself,
// "/4/17/230/": its subtree is every path starting with it (one index range), its depth is the number
// of seqs, and moving it rewrites only the paths under it.

/** "/4/17/" + 230 → "/4/17/230/"; a root's parent path is null. */
export function childPath(parentPath: string | null, seq: number): string {
  return `${parentPath ?? '/'}${seq}/`;
}

/** "/4/17/230/" → [4, 17, 230]. */
export function seqsOf(path: string): number[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((part) => Number(part));
}

/** "/4/17/230/" → 3: a root is level 1. */
export function levelOf(path: string): number {
  let slashes = 0;
  for (const char of path) if (char === '/') slashes++;
  return slashes - 1;
}

/** What makes two sibling names the same: case, width forms and runs of spaces do not count. */
export function nameKeyOf(name: string): string {
  return name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A code made from a name: "Men's Shirts & Tees" → "mens-shirts-tees" ("tag" when nothing is left). */
export function codeFromName(name: string): string {
  const code = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return code || 'tag';
}

/** The first of `base`, `base-2`, `base-3`… that `taken` does not hold. */
export function freeCode(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Names from the root down, joined as a person reads a path. */
export const pathText = (names: readonly string[]) => names.join(' > ');
