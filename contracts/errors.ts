// zod/mini, like every contract the sign-in path loads (see contracts/auth.ts).
import * as z from 'zod/mini';

/** Every error the API answers has this shape, with a proper 4xx/5xx status. Never a stack trace. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  /** Form errors: a message per field it concerns (e.g. `sku`, `attributeValues.12`). */
  fields: z.optional(z.record(z.string(), z.string())),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
