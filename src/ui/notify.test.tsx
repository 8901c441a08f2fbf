import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Each test gets fresh modules: what matters here is what happens before the toaster has loaded.
async function freshModules() {
  vi.resetModules();
  const notifyModule = await import('./notify');
  const { UiProvider } = await import('./Provider');
  return { ...notifyModule, UiProvider };
}

afterEach(async () => {
  cleanup();
  (await import('./toaster')).toaster.remove();
});

describe('notify before the toaster has loaded', () => {
  it('answers an id at once and shows the toasts, in order, once the toaster is in', async () => {
    const { notify } = await freshModules();
    const first = notify({ type: 'success', title: 'First' });
    const second = notify({ type: 'error', title: 'Second', id: 'mine' });
    expect(first).toMatch(/^toast-\d+$/);
    expect(second).toBe('mine');
    const { toaster } = await import('./toaster');
    await vi.waitFor(() => expect(toaster.getVisibleToasts()).toHaveLength(2));
    expect(toaster.getVisibleToasts().map((toast) => [toast.id, toast.title])).toEqual(
      expect.arrayContaining([
        [first, 'First'],
        ['mine', 'Second'],
      ]),
    );
  });

  it('a later notify with the same id updates the toast instead of stacking', async () => {
    const { notify } = await freshModules();
    const id = notify({ type: 'info', title: 'Uploading' });
    notify({ type: 'success', title: 'Uploaded', id });
    const { toaster } = await import('./toaster');
    await vi.waitFor(() => expect(toaster.getVisibleToasts()[0]?.title).toBe('Uploaded'));
    expect(toaster.getVisibleToasts()).toHaveLength(1);
  });

  it('UiProvider draws nothing until the first toast, then draws it', async () => {
    const { notify, UiProvider, useLoadedToaster } = await freshModules();
    expect(useLoadedToaster).toBeTypeOf('function');
    render(
      <UiProvider>
        <p>page</p>
      </UiProvider>,
    );
    expect(document.querySelector('[data-scope="toast"]')).toBeNull();
    act(() => {
      notify({ type: 'warning', title: 'Heads up' });
    });
    expect(await screen.findByText('Heads up')).toBeInTheDocument();
  });

  it('dismissing before anything was shown does not load the toaster', async () => {
    const { dismissToast, useLoadedToaster } = await freshModules();
    dismissToast();
    await new Promise((resolve) => setTimeout(resolve, 20));
    let loaded: unknown = 'unknown';
    function Probe() {
      loaded = useLoadedToaster();
      return null;
    }
    render(
      <ChakraProvider value={(await import('./theme-public')).publicSystem}>
        <Probe />
      </ChakraProvider>,
    );
    expect(loaded).toBeNull();
  });
});
