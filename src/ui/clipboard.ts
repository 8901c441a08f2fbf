// Copy-to-clipboard with the product's feedback toasts (SPEC §8 "Clipboard copy").
import { notify } from './notify';

export const COPY_SUCCESS_MESSAGE = 'Value copied to clipboard';
export const COPY_FAILURE_MESSAGE = 'Failed to copy to clipboard. Please try again.';

/**
 * Copies `value` and tells the user how it went. Resolves `true` on success. Never rejects:
 * the Clipboard API is missing on insecure origins (plain http) and denied without a user
 * gesture or permission, and both are reported with the same error toast.
 */
export async function copyToClipboard(value: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('Clipboard API unavailable');
    await navigator.clipboard.writeText(value);
    notify({ type: 'success', title: COPY_SUCCESS_MESSAGE });
    return true;
  } catch (error) {
    console.warn('Copy to clipboard failed', error);
    notify({ type: 'error', title: COPY_FAILURE_MESSAGE });
    return false;
  }
}
