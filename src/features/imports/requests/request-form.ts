// The "Request an import" form: a file the seller cannot map, or a feed URL, with a note. Checked here
// first (the URL with the app's one URL rule) so a mistake is shown at once; the server checks again.

import { isValidUrl, validationMessages } from '../../../../contracts/domain/validators';
import { FEED_URL_LIMIT, type FeedRequestBody, type RequestKind } from '../../../../contracts/imports';
import { checkSheetFile } from '../../../lib/sheet-file';

export const NOTE_LIMIT = 2000;

export interface RequestForm {
  kind: RequestKind;
  file: File | null;
  feedUrl: string;
  note: string;
  /** Staff asking on a seller's behalf. */
  sellerId: string;
}

export const emptyRequestForm: RequestForm = {
  kind: 'file',
  file: null,
  feedUrl: '',
  note: '',
  sellerId: '',
};

export type RequestFormErrors = Partial<Record<'file' | 'feedUrl' | 'note' | 'sellerId', string>>;

/** The form's problems (empty when it can be sent). */
export function checkRequestForm(form: RequestForm, chooseSeller: boolean): RequestFormErrors {
  const errors: RequestFormErrors = {};
  if (chooseSeller && !form.sellerId) errors.sellerId = 'Choose the seller.';
  if (form.kind === 'file') {
    if (!form.file) errors.file = 'Choose the file to send.';
    else {
      const problem = checkSheetFile(form.file);
      if (problem) errors.file = problem;
    }
  } else {
    const url = form.feedUrl.trim();
    if (!url) errors.feedUrl = 'Give the feed URL.';
    else if (url.length > FEED_URL_LIMIT) errors.feedUrl = 'The URL is too long.';
    else if (!isValidUrl(url)) errors.feedUrl = validationMessages.url;
  }
  if (form.note.trim().length > NOTE_LIMIT) errors.note = `A note has at most ${NOTE_LIMIT} characters.`;
  return errors;
}

/** The JSON body of a feed request. */
export function feedRequestBody(form: RequestForm, chooseSeller: boolean): FeedRequestBody {
  return {
    feedUrl: form.feedUrl.trim(),
    note: form.note.trim(),
    ...(chooseSeller && form.sellerId ? { sellerId: form.sellerId } : {}),
  };
}
