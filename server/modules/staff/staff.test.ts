import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffList, StaffMessage } from '../../../contracts/staff';
import { users } from '../../db/schema';
import {
  type ApiAs,
  apiAs,
  createTestApp,
  demoEmails,
  json,
  refreshCookieOf,
  signInAs,
  type TestApp,
  testBackends,
} from '../../test-support';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testBackends)('staff management on %s', (backend) => {
  let t: TestApp;
  let as: ApiAs;
  beforeAll(async () => {
    t = await createTestApp({ backend });
    as = await apiAs(t.app);
  });
  afterAll(() => t.close());

  const outbox = () => readdir(path.join(t.dataDir, 'outbox')).catch(() => [] as string[]);
  /** The set-password token of the newest mail to `to` that arrived after `before`. */
  async function mailedToken(before: string[], to: string): Promise<string> {
    for (const name of (await outbox()).filter((file) => !before.includes(file))) {
      const mail = (await readFile(path.join(t.dataDir, 'outbox', name), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!mail.includes(`To: ${to}`)) continue;
      const token = /reset-password\?token=([\w-]+)/.exec(mail)?.[1];
      if (token) return token;
    }
    throw new Error(`no set-password mail to ${to}`);
  }
  const signIn = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password } });
  const setPassword = (token: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/reset-password', payload: { token, password } });

  it('lists staff to admins only, paged, searchable and filtered by status', async () => {
    const list = await as('Admin', 'GET', '/api/v1/staff/listStaff');
    expect(list.statusCode).toBe(200);
    const body = json<StaffList>(list);
    expect(body.count).toBe(1);
    expect(body.rows[0]).toMatchObject({
      email: demoEmails.Staff,
      username: 'Sam Staff',
      isActive: true,
    });
    // Admins and sellers are not staff.
    expect(body.rows.map((row) => row.email)).not.toContain(demoEmails.Admin);
    expect(json<StaffList>(await as('Admin', 'GET', '/api/v1/staff/listStaff?query=SAM%20st')).count).toBe(1);
    expect(json<StaffList>(await as('Admin', 'GET', '/api/v1/staff/listStaff?query=%25')).count).toBe(0);
    expect(json<StaffList>(await as('Admin', 'GET', '/api/v1/staff/listStaff?status=inactive')).count).toBe(
      0,
    );
    for (const who of ['Staff', 'Seller'] as const) {
      const forbidden = await as(who, 'GET', '/api/v1/staff/listStaff');
      expect(forbidden.statusCode, who).toBe(403);
      expect(json(forbidden).code).toBe('FORBIDDEN');
    }
  });

  it('validates list parameters', async () => {
    for (const query of ['limit=0', 'limit=101', 'skip=-1', 'status=gone', `query=${'x'.repeat(101)}`]) {
      expect((await as('Admin', 'GET', `/api/v1/staff/listStaff?${query}`)).statusCode, query).toBe(400);
    }
  });

  it('invites a staff member: an account nobody can use until the mailed link sets a password', async () => {
    const before = await outbox();
    const invited = await as('Admin', 'POST', '/api/v1/staff/inviteStaff', {
      firstName: ' Nina ',
      lastName: 'Newhire',
      email: 'Nina.Newhire@Demo.Local',
    });
    expect(invited.statusCode).toBe(201);
    const { staff, message } = json<StaffMessage>(invited);
    expect(message).toBe('Invitation sent to nina.newhire@demo.local.');
    expect(staff).toMatchObject({
      firstName: 'Nina',
      lastName: 'Newhire',
      email: 'nina.newhire@demo.local',
      isActive: true,
    });
    const [stored] = await t.database.db.select().from(users).where(eq(users.id, staff.id));
    expect(stored?.role).toBe('Staff');

    const token = await mailedToken(before, 'nina.newhire@demo.local');
    const mailText = await readFile(
      path.join(t.dataDir, 'outbox', (await outbox()).find((f) => !before.includes(f)) as string),
      'utf8',
    );
    expect(mailText).toContain('Asha Admin has invited you');

    // No password works before the link is used.
    expect((await signIn('nina.newhire@demo.local', 'Demo@12345')).statusCode).toBe(401);
    expect((await setPassword(token, 'Welcome-aboard-1')).statusCode).toBe(200);
    const session = await signIn('nina.newhire@demo.local', 'Welcome-aboard-1');
    expect(session.statusCode).toBe(200);
    expect(json<{ user: { roles: string[] } }>(session).user.roles).toEqual(['Staff']);

    const list = json<StaffList>(await as('Admin', 'GET', '/api/v1/staff/listStaff'));
    expect(list.count).toBe(2);
    expect(list.rows[0]?.email).toBe('nina.newhire@demo.local');
  });

  it('refuses an e-mail that any user already has (409), whatever its case', async () => {
    for (const email of ['STAFF@demo.local', demoEmails.Seller, 'nina.newhire@demo.local']) {
      const duplicate = await as('Admin', 'POST', '/api/v1/staff/inviteStaff', { firstName: 'Dup', email });
      expect(duplicate.statusCode, email).toBe(409);
      expect(json(duplicate)).toEqual({
        message: 'A user with this e-mail address already exists.',
        code: 'EMAIL_TAKEN',
      });
    }
  });

  it('validates the invitation', async () => {
    const bad = [
      {},
      { firstName: 'No', email: 'not-an-email' },
      { firstName: '   ', email: 'blank@demo.local' },
      { firstName: 'x'.repeat(101), email: 'long@demo.local' },
      { firstName: 'Ok', lastName: 'y'.repeat(101), email: 'long2@demo.local' },
      { firstName: 'Ok', email: `${'z'.repeat(250)}@demo.local` },
    ];
    for (const payload of bad) {
      const response = await as('Admin', 'POST', '/api/v1/staff/inviteStaff', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(json(response).code).toBe('VALIDATION_ERROR');
    }
    expect(
      (await as('Staff', 'POST', '/api/v1/staff/inviteStaff', { firstName: 'A', email: 'a@b.co' }))
        .statusCode,
    ).toBe(403);
  });

  it('leaves no account behind when the invitation cannot be mailed', async () => {
    const send = t.app.mailer.send;
    t.app.mailer.send = async () => {
      throw new Error('SMTP is down');
    };
    try {
      const failed = await as('Admin', 'POST', '/api/v1/staff/inviteStaff', {
        firstName: 'Lost',
        email: 'lost@demo.local',
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      t.app.mailer.send = send;
    }
    const rows = await t.database.db.select().from(users).where(eq(users.email, 'lost@demo.local'));
    expect(rows).toHaveLength(0);
    expect(
      (
        await as('Admin', 'POST', '/api/v1/staff/inviteStaff', {
          firstName: 'Lost',
          email: 'lost@demo.local',
        })
      ).statusCode,
    ).toBe(201);
  });

  it('deactivates a staff member: sessions end, sign-in and refresh are refused, until reactivated', async () => {
    const staffSession = await signInAs(t.app, demoEmails.Staff);
    const deactivated = await as('Admin', 'PUT', `/api/v1/staff/updateStaffStatus/${as.ids.Staff}`, {
      isActive: false,
    });
    expect(deactivated.statusCode).toBe(200);
    expect(json<StaffMessage>(deactivated).staff.isActive).toBe(false);
    expect(json<StaffMessage>(deactivated).message).toBe(
      'Sam Staff is deactivated and signed out everywhere.',
    );

    const refused = await signIn(demoEmails.Staff, 'Demo@12345');
    expect(refused.statusCode).toBe(403);
    expect(json(refused).code).toBe('ACCOUNT_INACTIVE');
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      cookies: { mp_rt: staffSession.refreshCookie },
    });
    expect(refresh.statusCode).toBe(401);
    // No reset link is given to an inactive account either.
    expect((await as('Admin', 'POST', `/api/v1/staff/resendInvite/${as.ids.Staff}`)).statusCode).toBe(409);
    const inactive = json<StaffList>(await as('Admin', 'GET', '/api/v1/staff/listStaff?status=inactive'));
    expect(inactive.rows.map((row) => row.email)).toEqual([demoEmails.Staff]);

    const reactivated = await as('Admin', 'PUT', `/api/v1/staff/updateStaffStatus/${as.ids.Staff}`, {
      isActive: true,
    });
    expect(reactivated.statusCode).toBe(200);
    const back = await signIn(demoEmails.Staff, 'Demo@12345');
    expect(back.statusCode).toBe(200);
    expect(refreshCookieOf(back)).toBeTruthy();
    as.tokens.Staff = json<{ accessToken: string }>(back).accessToken;
  });

  it('spends an unused invitation link when the account is deactivated', async () => {
    const before = await outbox();
    const invited = json<StaffMessage>(
      await as('Admin', 'POST', '/api/v1/staff/inviteStaff', { firstName: 'Otto', email: 'otto@demo.local' }),
    );
    const token = await mailedToken(before, 'otto@demo.local');
    await as('Admin', 'PUT', `/api/v1/staff/updateStaffStatus/${invited.staff.id}`, { isActive: false });
    const used = await setPassword(token, 'Too-late-123');
    expect(used.statusCode).toBe(400);
    expect(json(used).code).toBe('RESET_INVALID');
  });

  it('resends a set-password link, at most one a minute', async () => {
    const invited = json<StaffMessage>(
      await as('Admin', 'POST', '/api/v1/staff/inviteStaff', { firstName: 'Rae', email: 'rae@demo.local' }),
    );
    // The invitation itself was the link of this minute.
    const tooSoon = await as('Admin', 'POST', `/api/v1/staff/resendInvite/${invited.staff.id}`);
    expect(tooSoon.statusCode).toBe(429);
    await t.database.db.execute(
      // Pretend the invitation went out two minutes ago.
      sql`update password_resets set created_at = now() - interval '2 minutes'`,
    );
    const before = await outbox();
    const resent = await as('Admin', 'POST', `/api/v1/staff/resendInvite/${invited.staff.id}`);
    expect(resent.statusCode).toBe(200);
    expect(json<StaffMessage>(resent).message).toBe('A new link was sent to rae@demo.local.');
    expect(await mailedToken(before, 'rae@demo.local')).toBeTruthy();
  });

  /** Subject and text of the newest mail to `to` that arrived after `before`. */
  async function mailTo(before: string[], to: string): Promise<{ subject: string; text: string }> {
    for (const name of (await outbox()).filter((file) => !before.includes(file))) {
      const raw = (await readFile(path.join(t.dataDir, 'outbox', name), 'utf8'))
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      if (!raw.includes(`To: ${to}`)) continue;
      return { subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '', text: raw };
    }
    throw new Error(`no mail to ${to}`);
  }
  const twoMinutesAgo = () =>
    t.database.db.execute(sql`update password_resets set created_at = now() - interval '2 minutes'`);

  it('sends a pending invitee the invitation again, and a member with a password a reset', async () => {
    const invited = json<StaffMessage>(
      await as('Admin', 'POST', '/api/v1/staff/inviteStaff', { firstName: 'Ines', email: 'ines@demo.local' }),
    );
    expect(invited.staff.invitePending).toBe(true);
    await twoMinutesAgo();

    // Pending: the invitation, with its 3 days.
    let before = await outbox();
    expect((await as('Admin', 'POST', `/api/v1/staff/resendInvite/${invited.staff.id}`)).statusCode).toBe(
      200,
    );
    const invitation = await mailTo(before, 'ines@demo.local');
    expect(invitation.subject).toBe('You are invited to the Marketplace Back-office');
    expect(invitation.text).toContain('has invited you to the Marketplace Back-office as a staff member');
    expect(invitation.text).toContain('within 3 days');

    // The demo staff member chose a password long ago: a password reset, not an invitation.
    const list = json<StaffList>(await as('Admin', 'GET', '/api/v1/staff/listStaff?status=all'));
    expect(list.rows.find((row) => row.email === demoEmails.Staff)?.invitePending).toBe(false);
    before = await outbox();
    expect((await as('Admin', 'POST', `/api/v1/staff/resendInvite/${as.ids.Staff}`)).statusCode).toBe(200);
    const reset = await mailTo(before, demoEmails.Staff);
    expect(reset.subject).toBe('Reset your Marketplace Back-office password');
    expect(reset.text).toContain('sent you a link to reset the password');
    expect(reset.text).toContain('within 30 minutes');
    expect(reset.text).not.toContain('invited');

    // Once the invitee has chosen a password, they are no longer pending and get a reset too.
    const inviteToken = /reset-password\?token=([\w-]+)/.exec(invitation.text)?.[1] as string;
    expect((await setPassword(inviteToken, 'Ines-chose-42')).statusCode).toBe(200);
    const after = json<StaffList>(await as('Admin', 'GET', '/api/v1/staff/listStaff?query=ines'));
    expect(after.rows[0]?.invitePending).toBe(false);
    await twoMinutesAgo();
    before = await outbox();
    expect((await as('Admin', 'POST', `/api/v1/staff/resendInvite/${invited.staff.id}`)).statusCode).toBe(
      200,
    );
    expect((await mailTo(before, 'ines@demo.local')).subject).toBe(
      'Reset your Marketplace Back-office password',
    );
  });

  it('only touches staff accounts, and validates ids', async () => {
    const url = (id: string) => `/api/v1/staff/updateStaffStatus/${id}`;
    // Admins are not staff (and nobody may switch themselves off).
    expect((await as('Admin', 'PUT', url(as.ids.Admin), { isActive: false })).statusCode).toBe(409);
    expect((await as('Admin', 'PUT', url(as.ids.Admin), { isActive: true })).statusCode).toBe(404);
    expect((await as('Admin', 'PUT', url(as.ids.Seller), { isActive: false })).statusCode).toBe(404);
    expect((await as('Admin', 'PUT', url(UNKNOWN_ID), { isActive: false })).statusCode).toBe(404);
    expect((await as('Admin', 'PUT', url('nope'), { isActive: false })).statusCode).toBe(400);
    expect((await as('Admin', 'PUT', url(as.ids.Staff), { isActive: 'no' })).statusCode).toBe(400);
    expect((await as('Admin', 'POST', `/api/v1/staff/resendInvite/${UNKNOWN_ID}`)).statusCode).toBe(404);
    expect((await as('Admin', 'POST', '/api/v1/staff/resendInvite/nope')).statusCode).toBe(400);
    // Still an active admin: the 404s above changed nothing.
    expect((await signIn(demoEmails.Admin, 'Demo@12345')).statusCode).toBe(200);
  });

  it('does not let a staff member with the edit right deactivate themselves', async () => {
    await as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${as.ids.Staff}`, {
      overrides: { '/staff/manage-staff': ['view', 'edit'] },
    });
    try {
      const self = await as('Staff', 'PUT', `/api/v1/staff/updateStaffStatus/${as.ids.Staff}`, {
        isActive: false,
      });
      expect(self.statusCode).toBe(409);
      expect(json(self).code).toBe('SELF_DEACTIVATION');
    } finally {
      await as('Admin', 'POST', `/api/v1/users/updateUserPermissions/${as.ids.Staff}`, { overrides: {} });
    }
  });
});
