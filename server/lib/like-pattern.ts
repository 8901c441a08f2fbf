/** `%text%` for ILIKE with the user's `%`, `_` and `\` taken literally: a search never becomes a wildcard. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
