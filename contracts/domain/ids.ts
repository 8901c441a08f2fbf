/**
 * The ids the database hands out are UUIDs. This is the one pattern for telling one apart from other
 * text where no zod schema runs (URL parameters, query-tree values, mail links); schemas use zod's own
 * `z.string().uuid()`. Any version, either case.
 */
export const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID = new RegExp(`^${UUID_SOURCE}$`, 'i');

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** The UUIDs among a list of values (a query-tree condition's), the rest dropped. */
export const uuidsOnly = (values: readonly unknown[]): string[] => values.filter(isUuid);
