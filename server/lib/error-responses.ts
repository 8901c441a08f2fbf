import { apiErrorSchema } from '../../contracts/errors';

/** The error statuses the routes declare; every one answers the single ApiError shape. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502;
export type ErrorResponses<S extends ErrorStatus> = { [Status in S]: typeof apiErrorSchema };

/**
 * A route schema's `response` entries for the errors it may answer, so the OpenAPI document lists
 * them: `response: { 200: thingSchema, ...errorResponses(400, 429) }`.
 */
export function errorResponses<const S extends ErrorStatus>(...statuses: S[]): ErrorResponses<S> {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as ErrorResponses<S>;
}

/** What a resource's routes answer: bad input, no permission, not there (or not yours), a conflict. */
export const resourceErrors = errorResponses(400, 403, 404, 409);

/** What an upload answers besides: too large (413) and not an accepted type (415). */
export const uploadErrors = errorResponses(400, 403, 404, 413, 415);
