import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { RESET_LINK_INVALID_MESSAGE } from '../../../contracts/auth';
import { ApiError } from '../../services/api-error';
import { publicSystem } from '../../ui/theme-public';
import ResetPasswordPage from './ResetPasswordPage';

// The API call is the edge: the page's own decisions (what a broken link shows) are what is tested.
const resetPassword = vi.hoisted(() => vi.fn());
vi.mock('../../services/auth-api', () => ({ resetPassword }));

const WELL_FORMED = 'Zm9vYmFyYmF6cXV1eGZvb2JhcmJhenF1dXhmb29iYXI';

function renderAt(path: string) {
  const { hook, searchHook } = memoryLocation({ path });
  return render(
    <ChakraProvider value={publicSystem}>
      <Router hook={hook} searchHook={searchHook}>
        <ResetPasswordPage />
      </Router>
    </ChakraProvider>,
  );
}

async function expectBrokenLink() {
  expect(await screen.findByText(RESET_LINK_INVALID_MESSAGE)).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
    'href',
    '/forgot-password',
  );
  expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  expect(screen.queryByText(/invalid input/i)).not.toBeInTheDocument();
}

afterEach(() => {
  cleanup();
  resetPassword.mockReset();
});

describe('<ResetPasswordPage />', () => {
  it.each([
    ['missing', '/reset-password'],
    ['empty', '/reset-password?token='],
    ['too short', '/reset-password?token=abc'],
    ['not base64url', `/reset-password?token=${'x'.repeat(30)}%20%3Cb%3E`],
    ['cut in the middle of a mail client', `/reset-password?token=${WELL_FORMED.slice(0, 12)}`],
  ])('says a %s token is a broken link, without a form', async (_, path) => {
    renderAt(path);
    await expectBrokenLink();
    expect(resetPassword).not.toHaveBeenCalled();
  });

  it('offers the form for a well-formed token, and a new link when the server refuses it', async () => {
    resetPassword.mockRejectedValue(
      new ApiError({ status: 400, code: 'RESET_INVALID', message: RESET_LINK_INVALID_MESSAGE }),
    );
    const user = userEvent.setup();
    renderAt(`/reset-password?token=${WELL_FORMED}`);
    await user.type(screen.getByLabelText('New password'), 'N3w-password!');
    await user.type(screen.getByLabelText('Repeat the new password'), 'N3w-password!');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(resetPassword).toHaveBeenCalledWith(WELL_FORMED, 'N3w-password!');
    await expectBrokenLink();
  });

  it('keeps the form for other failures (a weak password, the network)', async () => {
    resetPassword.mockRejectedValue(
      new ApiError({ status: 0, code: 'ERR_NETWORK', message: 'Network Error' }),
    );
    const user = userEvent.setup();
    renderAt(`/reset-password?token=${WELL_FORMED}`);
    await user.type(screen.getByLabelText('New password'), 'N3w-password!');
    await user.type(screen.getByLabelText('Repeat the new password'), 'N3w-password!');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Network Error')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });
});
