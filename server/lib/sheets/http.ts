// A SheetError as the API answers it: `{ message, code }` with the status its code calls for.
import { HttpError } from '../http-error';
import { type SheetError, sheetErrorStatus } from './errors';

export const sheetHttpError = (error: SheetError) =>
  new HttpError(sheetErrorStatus(error.code), error.message, error.code);
