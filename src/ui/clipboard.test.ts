import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPY_FAILURE_MESSAGE, COPY_SUCCESS_MESSAGE, copyToClipboard } from './clipboard';
import { toaster, toastKind } from './toaster';

const original = Object.getOwnPropertyDescriptor(navigator, 'clipboard');

function mockClipboard(writeText: ((value: string) => Promise<void>) | undefined) {
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: writeText ? { writeText: vi.fn(writeText) } : undefined,
  });
  return navigator.clipboard;
}

// The toaster loads with the first toast (notify.ts), so the toast can land a moment later.
const lastToast = () =>
  vi.waitFor(() => {
    const toasts = toaster.getVisibleToasts();
    expect(toasts).toHaveLength(1);
    const toast = toasts[0]!;
    return { title: toast.title, kind: toastKind(toast) };
  });

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  toaster.remove();
  vi.restoreAllMocks();
  if (original) Object.defineProperty(navigator, 'clipboard', original);
  else Reflect.deleteProperty(navigator, 'clipboard');
});

describe('copyToClipboard', () => {
  it('writes the value and shows the success toast', async () => {
    const clipboard = mockClipboard(async () => {});
    await expect(copyToClipboard('SKU-123')).resolves.toBe(true);
    expect(clipboard.writeText).toHaveBeenCalledWith('SKU-123');
    expect(await lastToast()).toEqual({ title: 'Value copied to clipboard', kind: 'success' });
    expect(COPY_SUCCESS_MESSAGE).toBe('Value copied to clipboard');
  });

  it('shows the error toast when writing is refused', async () => {
    mockClipboard(async () => {
      throw new DOMException('Document is not focused.', 'NotAllowedError');
    });
    await expect(copyToClipboard('SKU-123')).resolves.toBe(false);
    expect(await lastToast()).toEqual({
      title: 'Failed to copy to clipboard. Please try again.',
      kind: 'error',
    });
    expect(COPY_FAILURE_MESSAGE).toBe('Failed to copy to clipboard. Please try again.');
  });

  it('shows the error toast when the Clipboard API is missing (insecure origin)', async () => {
    mockClipboard(undefined);
    await expect(copyToClipboard('x')).resolves.toBe(false);
    expect(await lastToast()).toEqual({ title: COPY_FAILURE_MESSAGE, kind: 'error' });
  });
});
