// Storage keys are the relative paths the database keeps (`uploads/documents/<uuid>.pdf`). Both drivers
// check them the same way, so a key that could leave the disk root is refused on S3 too.
import { InvalidStorageKeyError } from './errors';

const MAX_KEY_LENGTH = 1024;

/**
 * The key itself when it is a plain relative path: non-empty segments separated by `/`, none of them
 * `.` or `..`, no leading `/`, no backslash, no NUL or other control character. Otherwise
 * InvalidStorageKeyError (answered as 404: a key from a URL that is not a file is just not found).
 */
export function checkedKey(key: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || /[\\\u0000-\u001f\u007f]/.test(key))
    throw new InvalidStorageKeyError();
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw new InvalidStorageKeyError();
  }
  return key;
}

/** A listing prefix: empty (everything) or a checked key, optionally ending with `/`. */
export function checkedPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  checkedKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/**
 * The key of a file the database names, refusing one outside `folder`: a row can only ever point into
 * its own feature's folder, whatever was written into it.
 */
export function keyInFolder(folder: string, key: string): string {
  checkedKey(key);
  if (!key.startsWith(`${folder}/`)) throw new InvalidStorageKeyError();
  return key;
}
