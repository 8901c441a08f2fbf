import { escapeHtml } from '../../lib/escape-html';
import type { Mail } from '../../plugins/mail';

/** A set-password link in an invitation stays valid for three days: people do not read mail at once. */
export const INVITE_TTL_MS = 72 * 60 * 60_000;

/** The invitation a new staff member receives; the link is the password-reset page (auth module). */
export function inviteMail(input: { to: string; firstName: string; invitedBy: string; link: string }): Mail {
  const greeting = input.firstName ? `Hello ${input.firstName},` : 'Hello,';
  const intro = `${input.invitedBy} has invited you to the Marketplace Back-office as a staff member.`;
  return {
    to: input.to,
    subject: 'You are invited to the Marketplace Back-office',
    text: `${greeting}\n\n${intro}\nOpen this link within 3 days to choose your password:\n\n${input.link}\n\nThen sign in with this e-mail address and the password you chose.\nIf you did not expect this invitation, ignore this mail.\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)} Open this link within 3 days to choose your password:</p><p><a href="${escapeHtml(input.link)}">Choose my password</a></p><p>Then sign in with this e-mail address and the password you chose. If you did not expect this invitation, ignore this mail.</p>`,
  };
}

/**
 * The password link an admin sends a staff member who has already chosen a password: a reset, worded as
 * one (an invitation to an account they have used for months would only confuse them).
 */
export function passwordResetMail(input: {
  to: string;
  firstName: string;
  sentBy: string;
  link: string;
}): Mail {
  const greeting = input.firstName ? `Hello ${input.firstName},` : 'Hello,';
  const intro = `${input.sentBy} sent you a link to reset the password of your Marketplace Back-office account.`;
  return {
    to: input.to,
    subject: 'Reset your Marketplace Back-office password',
    text: `${greeting}\n\n${intro}\nOpen this link within 30 minutes to choose a new one:\n\n${input.link}\n\nUntil you do, your current password keeps working.\n`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)} Open this link within 30 minutes to choose a new one:</p><p><a href="${escapeHtml(input.link)}">Reset my password</a></p><p>Until you do, your current password keeps working.</p>`,
  };
}
