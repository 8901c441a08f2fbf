// Settings → Profile in jsdom against a fake API: the inherited defaults, the phone formatted on blur,
// a save sending null for "inherit", the server's refusal shown, the password form's checks, and the
// avatar upload refetching the current user (the header's avatar).
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../../contracts/users';
import { makeCurrentUser } from '../../../services/testing/current-user';
import ProfileSection from './ProfileSection';
import { fakeApiForEachTest, renderSection } from './section-testing';

const ID = '22222222-2222-4222-8222-222222222222';

const baseRecord = (): UserRecord => ({
  id: ID,
  email: 'asha@demo.local',
  firstName: 'Asha',
  lastName: 'Rao',
  username: 'Asha Rao',
  phone: '+91 90000 00001',
  avatar: null,
  role: 'Admin',
  sellerId: null,
  isActive: true,
  defaultCountry: null,
  defaultLanguage: 'DE',
  defaultCurrency: null,
  marketplace: {
    defaultCountry: 'IN',
    defaultLanguage: 'EN',
    defaultCurrency: 'INR',
    currencies: ['INR', 'USD'],
    languages: ['EN', 'DE'],
  },
});

let record: UserRecord;
let putReply: { status: number; data: unknown } | null;

beforeEach(() => {
  record = baseRecord();
  putReply = null;
});

const api = fakeApiForEachTest((request) => {
  if (request.url === '/api/v1/users/byToken/current') {
    return { status: 200, data: makeCurrentUser({ id: ID, userAvatar: record.avatar }) };
  }
  if (request.method === 'GET' && request.url === `/api/v1/users/${ID}`) return { status: 200, data: record };
  if (request.method === 'PUT' && request.url === `/api/v1/users/${ID}`) {
    if (putReply) return putReply;
    record = { ...record, ...(request.body as Partial<UserRecord>) };
    return { status: 200, data: record };
  }
  if (request.method === 'POST' && request.url === '/api/v1/users/uploadUserImage') {
    record = { ...record, avatar: '/files/logos/new.webp' };
    return { status: 200, data: record };
  }
  if (request.method === 'POST' && request.url === `/api/v1/users/${ID}/password`) {
    const body = request.body as { currentPassword: string };
    return body.currentPassword === 'right-pass-1'
      ? { status: 200, data: { message: 'Your password has been changed.' } }
      : { status: 400, data: { message: 'Your current password is not correct.' } };
  }
  return { status: 404, data: { message: 'not here' } };
});

const currentUserFetches = () => api.requests.filter((r) => r.url === '/api/v1/users/byToken/current').length;

describe('ProfileSection', () => {
  it("offers the marketplace's defaults to inherit, formats the phone and saves null for inherit", async () => {
    const user = userEvent.setup();
    renderSection(<ProfileSection />);
    const currency = await screen.findByLabelText('Default currency');
    expect(currency).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Inherit from the marketplace (INR)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Inherit from the marketplace (India)' })).toBeInTheDocument();
    expect(screen.getByLabelText('Default language')).toHaveValue('DE');

    const phone = screen.getByLabelText(/^Phone/);
    await user.clear(phone);
    await user.type(phone, '9876543210');
    await user.tab();
    expect(phone).toHaveValue('+91 98765 43210');

    await user.selectOptions(currency, 'USD');
    await user.selectOptions(screen.getByLabelText('Default language'), '');
    const before = currentUserFetches();
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Your profile is saved.')).toBeInTheDocument();
    const put = api.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      firstName: 'Asha',
      lastName: 'Rao',
      phone: '+91 98765 43210',
      defaultCountry: null,
      defaultLanguage: null,
      defaultCurrency: 'USD',
    });
    // The header's user (name, defaults) refetches.
    await waitFor(() => expect(currentUserFetches()).toBeGreaterThan(before));
  });

  it("shows the server's refusal of a save", async () => {
    putReply = { status: 400, data: { message: 'Enter a valid phone number, with its country code.' } };
    const user = userEvent.setup();
    renderSection(<ProfileSection />);
    await user.click(await screen.findByRole('button', { name: 'Save profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a valid phone number');
  });

  it('checks the new password twice and shows a wrong current password', async () => {
    const user = userEvent.setup();
    renderSection(<ProfileSection />);
    await user.type(await screen.findByLabelText(/^Current password/), 'wrong-pass-1');
    await user.type(screen.getByLabelText(/^New password/), 'Fresh-pass-42');
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'Fresh-pass-43');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two new passwords differ')).toBeInTheDocument();
    expect(api.requests.some((r) => r.url.endsWith('/password'))).toBe(false);

    await user.clear(screen.getByLabelText(/^Repeat the new password/));
    await user.type(screen.getByLabelText(/^Repeat the new password/), 'Fresh-pass-42');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your current password is not correct.');

    await user.clear(screen.getByLabelText(/^Current password/));
    await user.type(screen.getByLabelText(/^Current password/), 'right-pass-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Current password/)).toHaveValue('');
  });

  it('uploads a new picture, refuses a GIF in the browser, and refetches the current user', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderSection(<ProfileSection />);
    const input = await screen.findByTestId('profile-avatar-input');
    await user.upload(input, new File(['GIF89a'], 'me.gif', { type: 'image/gif' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a PNG, JPEG or WebP picture.');

    const before = currentUserFetches();
    await user.upload(
      input,
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' }),
    );
    expect(await screen.findByText('Picture saved')).toBeInTheDocument();
    expect(api.requests.some((r) => r.url === '/api/v1/users/uploadUserImage')).toBe(true);
    await waitFor(() => expect(currentUserFetches()).toBeGreaterThan(before));
    expect(screen.getByTestId('profile-avatar')).toHaveAttribute('src', '/files/logos/new.webp');
  });
});
