import {
  ChakraProvider,
  createSystem,
  defaultBaseConfig,
  defaultConfig,
  type SystemContext,
} from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor } from 'xstate';
import ForgotPasswordPage from '../features/auth/ForgotPasswordPage';
import ResetPasswordPage from '../features/auth/ResetPasswordPage';
import SignInPage from '../features/auth/SignInPage';
import ResponseCollectionPage from '../features/mail-links/ResponseCollectionPage';
import UnsubscribePage from '../features/mail-links/UnsubscribePage';
import { authMachine } from '../machines/auth.machine';
import { AuthActorProvider } from '../services/auth-context';
import { http } from '../services/http';
import { createFakeAdapter } from '../services/testing/fake-adapter';
import { TOAST_TYPES } from './notify';
import { PageSpinner } from './page-spinner';
import { chakraThemeWithoutRecipes, publicSystem } from './theme-public';
import { AppToaster, notify, toaster } from './toaster';

describe('the public styling system', () => {
  it("is Chakra's default theme without recipes: same tokens, styles and conditions", () => {
    const reference = createSystem(defaultConfig)._config;
    const assembled = createSystem(defaultBaseConfig, chakraThemeWithoutRecipes)._config;
    const { recipes, slotRecipes, ...referenceTheme } = reference.theme ?? {};
    const { recipes: noRecipes, slotRecipes: noSlotRecipes, ...assembledTheme } = assembled.theme ?? {};
    expect(noRecipes ?? {}).toEqual({});
    expect(noSlotRecipes ?? {}).toEqual({});
    expect(Object.keys(recipes ?? {}).length).toBeGreaterThan(10);
    expect(Object.keys(slotRecipes ?? {}).length).toBeGreaterThan(10);
    expect(assembledTheme).toEqual(referenceTheme);
    const { theme: _a, ...referenceRest } = reference;
    const { theme: _b, ...assembledRest } = assembled;
    expect(assembledRest).toEqual(referenceRest);
  });
});

const fullSystem = createSystem(defaultConfig);

// Every recipe the public screens ask the system for. A key Chakra itself has no recipe for (Text
// asks for 'text') is not missing; one that Chakra has but the public system lacks is.
function recordingSystem(system: SystemContext) {
  const asked = new Set<string>();
  const recording: SystemContext = {
    ...system,
    getRecipeFn: (key, fallback) => {
      asked.add(`recipe:${key}`);
      return system.getRecipeFn(key, fallback);
    },
    getSlotRecipeFn: (key, fallback) => {
      asked.add(`slotRecipe:${key}`);
      return system.getSlotRecipeFn(key, fallback);
    },
  };
  const missing = () =>
    [...asked].filter((entry) => {
      const [kind, key = ''] = entry.split(':');
      return kind === 'recipe'
        ? fullSystem.isRecipe(key) && !system.isRecipe(key)
        : fullSystem.isSlotRecipe(key) && !system.isSlotRecipe(key);
    });
  return { recording, asked, missing };
}

function renderPublic(system: SystemContext, ui: ReactNode, path = '/') {
  const actor = createActor(authMachine).start();
  const { hook, searchHook } = memoryLocation({ path });
  return render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={new QueryClient()}>
        <AuthActorProvider actor={actor}>
          <Router hook={hook} searchHook={searchHook}>
            {ui}
          </Router>
        </AuthActorProvider>
      </QueryClientProvider>
      <AppToaster />
    </ChakraProvider>,
  );
}

describe('every public screen finds its recipes in the public system', () => {
  afterEach(() => {
    cleanup();
    toaster.remove();
  });

  it('sign-in, with its validation messages', async () => {
    const { recording, asked, missing } = recordingSystem(publicSystem);
    renderPublic(recording, <SignInPage />, '/signin');
    await userEvent.type(screen.getByLabelText(/e-mail/i), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: /sign in/i }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(asked).toContain('recipe:button');
    expect(missing()).toEqual([]);
  });

  it('forgot password', async () => {
    const { recording, asked, missing } = recordingSystem(publicSystem);
    renderPublic(recording, <ForgotPasswordPage />, '/forgot-password');
    await userEvent.click(screen.getByRole('button'));
    expect(asked).toContain('slotRecipe:field');
    expect(missing()).toEqual([]);
  });

  it('reset password, with and without a token', async () => {
    const withToken = recordingSystem(publicSystem);
    renderPublic(withToken.recording, <ResetPasswordPage />, `/reset-password?token=${'a'.repeat(43)}`);
    await userEvent.click(screen.getByRole('button', { name: /password/i }));
    expect(withToken.missing()).toEqual([]);
    cleanup();
    const withoutToken = recordingSystem(publicSystem);
    renderPublic(withoutToken.recording, <ResetPasswordPage />, '/reset-password');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(withoutToken.asked).toContain('slotRecipe:alert');
    expect(withoutToken.missing()).toEqual([]);
  });

  it('unsubscribe and response collection, with and without a complete link', async () => {
    // The answer page asks the server for the campaign's answers first.
    const originalAdapter = http.defaults.adapter;
    http.defaults.adapter = createFakeAdapter(() => ({
      status: 200,
      data: { options: ['Interested', 'Not now'], labels: ['Interested', 'Not now'], current: null },
    })).adapter;
    onTestFinished(() => {
      http.defaults.adapter = originalAdapter;
    });
    const link = 'email=a%40b.co&campaign=c1&token=abcdefghijklmnopqrstuvwxyz';
    for (const [Page, path] of [
      [UnsubscribePage, '/unsubscribe'],
      [ResponseCollectionPage, '/responseCollection'],
    ] as const) {
      const complete = recordingSystem(publicSystem);
      renderPublic(complete.recording, <Page />, `${path}?${link}`);
      expect((await screen.findAllByRole('button')).length).toBeGreaterThan(0);
      expect(complete.missing()).toEqual([]);
      cleanup();
      const incomplete = recordingSystem(publicSystem);
      renderPublic(incomplete.recording, <Page />, path);
      expect(await screen.findByRole('alert')).toBeInTheDocument();
      expect(incomplete.missing()).toEqual([]);
      cleanup();
    }
  });

  it('the page spinner and every toast type', async () => {
    const { recording, asked, missing } = recordingSystem(publicSystem);
    renderPublic(recording, <PageSpinner />);
    act(() => {
      for (const type of TOAST_TYPES)
        notify({ type, title: `A ${type} toast`, action: { label: 'See Details', onClick: () => {} } });
    });
    expect(await screen.findByText('A success toast')).toBeInTheDocument();
    expect(asked).toContain('slotRecipe:toast');
    expect(asked).toContain('recipe:spinner');
    expect(missing()).toEqual([]);
  });

  it('catches a recipe the public system lacks (the check can fail)', () => {
    const { recording, missing } = recordingSystem(publicSystem);
    recording.getSlotRecipeFn('table');
    expect(missing()).toEqual(['slotRecipe:table']);
  });
});
