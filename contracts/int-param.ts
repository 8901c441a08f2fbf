import { z } from 'zod';

/** The largest value a PostgreSQL integer (int4) column holds: ids, version numbers, positions. */
export const INT4_MAX = 2_147_483_647;

/**
 * The one schema of a whole number in a path or query parameter (text, coerced): never negative and
 * never past what an integer column holds, so a larger value is a 400, never a database error. Each
 * parameter narrows it: `intParam.min(1).max(100).default(20)`.
 */
export const intParam = z.coerce.number().int().min(0).max(INT4_MAX);
