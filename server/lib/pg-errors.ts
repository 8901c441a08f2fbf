/**
 * Whether a failed statement broke a unique index (SQLSTATE 23505), optionally a named one. A check
 * before an insert gives the friendly 409; this catches the race where two requests pass the check at
 * once. Drizzle wraps driver errors (pg and PGlite alike) and keeps the driver's error as `cause`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 3; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === '23505') return !constraint || candidate.constraint === constraint;
    current = candidate.cause;
  }
  return false;
}
