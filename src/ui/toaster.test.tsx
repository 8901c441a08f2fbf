import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_TOAST_DURATION, TOAST_DURATION, type ToastType } from './notify';
import { publicSystem as system } from './theme-public';
import { AppToaster, dismissToast, notify, toaster, toastKind } from './toaster';

const visible = () => toaster.getVisibleToasts();
const only = () => {
  const toasts = visible();
  expect(toasts).toHaveLength(1);
  return toasts[0]!;
};

// Dismissing starts the exit (data-state="closed"); removal from the store follows on an
// animation-frame timer that jsdom's clock skew delays, so tests assert the dismissal itself.
const toastRoot = (text: string) => screen.getByText(text).closest('[data-part="root"]');
const expectDismissed = (text: string) =>
  waitFor(() => expect(toastRoot(text)).toHaveAttribute('data-state', 'closed'));

function renderToaster() {
  return render(
    <ChakraProvider value={system}>
      <AppToaster />
    </ChakraProvider>,
  );
}

// No vitest globals here, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  toaster.remove();
  vi.useRealTimers();
});

describe('constants and store', () => {
  it('uses the SPEC durations and the top-right placement', () => {
    expect(TOAST_DURATION).toBe(3000);
    expect(DEFAULT_TOAST_DURATION).toBe(5000);
    expect(toaster.attrs.placement).toBe('top-end');
  });
});

describe('notify', () => {
  it.each([
    ['success', 3000, 'success'],
    ['notification', 3000, 'info'],
    ['error', 3000, 'error'],
    ['info', 3000, 'info'],
    ['warning', 3000, 'warning'],
    ['default', 5000, 'info'],
  ] as [ToastType, number, string][])('%s lasts %i ms (stored as %s)', (type, duration, storeType) => {
    notify({ type, title: `A ${type} toast` });
    const toast = only();
    expect(toast.duration).toBe(duration);
    expect(toast.type).toBe(storeType);
    expect(toast.title).toBe(`A ${type} toast`);
    expect(toastKind(toast)).toBe(type);
  });

  it('passes duration, action, closable and description through', () => {
    const onClick = vi.fn();
    notify({
      type: 'notification',
      title: 'Connect Request Received From Ann.',
      description: 'ann@example.com',
      duration: Number.POSITIVE_INFINITY,
      action: { label: 'See Details', onClick },
      closable: false,
    });
    expect(only()).toMatchObject({
      duration: Number.POSITIVE_INFINITY,
      description: 'ann@example.com',
      action: { label: 'See Details', onClick },
      closable: false,
    });
  });

  it('returns the id, and an explicit id updates instead of stacking', () => {
    const id = notify({ type: 'info', title: 'Uploading', id: 'upload' });
    expect(id).toBe('upload');
    notify({ type: 'success', title: 'Uploaded', id: 'upload' });
    expect(only()).toMatchObject({ id: 'upload', title: 'Uploaded', type: 'success' });
  });

  it('goes through toaster.create, so machine actions need no React', () => {
    const create = vi.spyOn(toaster, 'create');
    notify({ type: 'error', title: 'Import Failed' });
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ type: 'error', duration: 3000 }));
  });
});

describe('<AppToaster />', () => {
  it('renders title, description and an always-present close button', async () => {
    renderToaster();
    act(() => {
      notify({ type: 'success', title: 'Saved', description: 'All changes stored' });
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(screen.getByText('All changes stored')).toBeInTheDocument();
    expect(toastRoot('Saved')).toHaveAttribute('data-state', 'open');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await expectDismissed('Saved');
  });

  it('hides the close button only when closable is false', async () => {
    renderToaster();
    act(() => {
      notify({ type: 'info', title: 'Pinned', closable: false });
    });
    await screen.findByText('Pinned');
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });

  it('runs the action and extra actions, each dismissing the toast', async () => {
    renderToaster();
    const details = vi.fn();
    const reject = vi.fn();
    act(() => {
      notify({
        type: 'notification',
        title: 'Incoming Call',
        description: 'From: +911234567890',
        duration: Number.POSITIVE_INFINITY,
        action: { label: 'Accept', onClick: details },
        actions: [{ label: 'Reject', onClick: reject }],
      });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Reject' }));
    expect(reject).toHaveBeenCalledOnce();
    expect(details).not.toHaveBeenCalled();
    await expectDismissed('Incoming Call');

    act(() => {
      notify({ type: 'notification', title: 'Again', action: { label: 'See Details', onClick: details } });
    });
    await userEvent.click(await screen.findByRole('button', { name: 'See Details' }));
    expect(details).toHaveBeenCalledOnce();
    await expectDismissed('Again');
  });

  it('marks the product type on the toast so notification and default can look different', async () => {
    renderToaster();
    act(() => {
      notify({ type: 'notification', title: 'Bell' });
      notify({ type: 'default', title: 'Plain' });
    });
    const bell = (await screen.findByText('Bell')).closest('[data-kind]');
    const plain = screen.getByText('Plain').closest('[data-kind]');
    expect(bell).toHaveAttribute('data-kind', 'notification');
    expect(bell?.querySelector('svg.lucide-bell')).not.toBeNull();
    expect(plain).toHaveAttribute('data-kind', 'default');
    expect(plain?.querySelector('svg.lucide')).toBeNull();
  });

  it('expires a standard toast after 3000 ms but keeps an Infinity one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderToaster();
    let shortId = '';
    let stickyId = '';
    act(() => {
      shortId = notify({ type: 'success', title: 'Short' });
      stickyId = notify({ type: 'notification', title: 'Sticky', duration: Number.POSITIVE_INFINITY });
    });
    await screen.findByText('Short');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2500);
    });
    expect(toaster.isVisible(shortId)).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(toaster.isVisible(shortId)).toBe(false);
    expect(toaster.isVisible(stickyId)).toBe(true);
    dismissToast(stickyId);
  });
});
