// How often anyone may try to sign in, without handing an attacker a way to lock people out.
//
// A lock after N wrong passwords lets anyone lock any account (the owner's right password included),
// while guesses spread over many accounts are not limited at all. Instead:
// - every attempt from an address is counted before the password is checked: a flood from one place
//   stops quickly, and it bounds how many guesses can be in flight at once;
// - failures are counted per address, per account and across all accounts (a global ceiling), in
//   stepped windows that slow guessing down as failures pile up (backoff): at one account from many
//   places, 5 a minute, 10 a quarter hour, 30 a day. A failure is recorded once the password is
//   known to be wrong, so the limits can be passed by at most the guesses already in flight;
// - a browser that signed in to the account before (its device cookie is known for that account) is
//   not counted with everyone else: nobody else's failures hold its owner back. It has a failure
//   budget of its own, so a stolen device cookie is no guessing licence. A password reset makes the
//   browser that did it a known device of the account, so the owner always has a way back in.
// Successful sign-ins from a shared address (an office behind one NAT) count only as attempts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error';
import { hashToken } from '../../lib/secrets';
import { waitInWords } from '../../plugins/rate-limits';

export interface Window {
  max: number;
  timeWindow: number;
}

export interface SignInLimits {
  /** Attempts (successful or not) from one address. */
  attemptsPerAddress: Window[];
  /** Failed attempts from one address. */
  failuresPerAddress: Window[];
  /** Failed attempts at one account, from browsers not known to it. */
  failuresPerAccount: Window[];
  /** Failed attempts at any account from anywhere. */
  failuresGlobal: Window[];
  /** Failed attempts from a browser known to the account (its own budget, per account and device). */
  failuresPerKnownDevice: Window[];
}

const MINUTE = 60_000;

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  attemptsPerAddress: [{ max: 60, timeWindow: MINUTE }],
  failuresPerAddress: [
    { max: 10, timeWindow: MINUTE },
    { max: 50, timeWindow: 60 * MINUTE },
  ],
  failuresPerAccount: [
    { max: 5, timeWindow: MINUTE },
    { max: 10, timeWindow: 15 * MINUTE },
    { max: 30, timeWindow: 24 * 60 * MINUTE },
  ],
  failuresGlobal: [{ max: 300, timeWindow: MINUTE }],
  failuresPerKnownDevice: [
    { max: 10, timeWindow: 15 * MINUTE },
    { max: 30, timeWindow: 24 * 60 * MINUTE },
  ],
};

export const TOO_MANY_SIGN_INS_CODE = 'TOO_MANY_ATTEMPTS';

export interface SignInAttempt {
  email: string;
  /** The browser's device cookie, when it has one. */
  deviceToken?: string;
  /** Whether that cookie signed in to this account before. */
  knownDevice: boolean;
}

type Limiter = (
  request: FastifyRequest,
  options?: { increment?: boolean },
) => ReturnType<ReturnType<FastifyInstance['createRateLimit']>>;

export function createSignInLimits(app: FastifyInstance, limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS) {
  // The attempt under way, per request: the key generators read it (a limiter gets only the request).
  const attempts = new WeakMap<FastifyRequest, SignInAttempt>();
  const attemptOf = (request: FastifyRequest) => attempts.get(request) as SignInAttempt;

  const limiters = (name: string, windows: Window[], key: (request: FastifyRequest) => string): Limiter[] =>
    windows.map((window) =>
      app.createRateLimit({
        max: window.max,
        timeWindow: window.timeWindow,
        // Every limiter names its keys: in Redis all limiters made this way share one key space.
        keyGenerator: (request) => `sign-in:${name}:${window.timeWindow}:${key(request)}`,
      }),
    );
  const address = (request: FastifyRequest) => request.ip;
  const account = (request: FastifyRequest) => attemptOf(request).email.toLowerCase();
  const device = (request: FastifyRequest) =>
    `${account(request)}:${hashToken(attemptOf(request).deviceToken ?? '')}`;

  const attemptLimiters = limiters('attempts-address', limits.attemptsPerAddress, address);
  const strangerFailures = [
    ...limiters('failures-address', limits.failuresPerAddress, address),
    ...limiters('failures-account', limits.failuresPerAccount, account),
    ...limiters('failures-global', limits.failuresGlobal, () => 'all'),
  ];
  const knownDeviceFailures = limiters('failures-device', limits.failuresPerKnownDevice, device);
  const failuresOf = (attempt: SignInAttempt) =>
    attempt.knownDevice ? knownDeviceFailures : strangerFailures;

  const refuse = (reply: FastifyReply, ttlMs: number) => {
    reply.header('retry-after', Math.max(1, Math.ceil(ttlMs / 1000)));
    return new HttpError(
      429,
      `Too many sign-in attempts. Try again in ${waitInWords(ttlMs)}.`,
      TOO_MANY_SIGN_INS_CODE,
    );
  };

  return {
    /** Counts the attempt and checks the failure budgets; throws 429 (with Retry-After) when it must wait. */
    async admit(request: FastifyRequest, reply: FastifyReply, attempt: SignInAttempt): Promise<void> {
      attempts.set(request, attempt);
      for (const limiter of attemptLimiters) {
        const result = await limiter(request);
        if (!result.isAllowed && result.isExceeded) throw refuse(reply, result.ttl);
      }
      for (const limiter of failuresOf(attempt)) {
        const result = await limiter(request, { increment: false });
        // Refused once the budget is spent: the next failure would exceed it.
        if (!result.isAllowed && result.remaining <= 0) throw refuse(reply, result.ttl);
      }
    },
    /** Counts a wrong password (or an unknown e-mail) against the attempt's failure budgets. */
    async failed(request: FastifyRequest): Promise<void> {
      for (const limiter of failuresOf(attemptOf(request))) await limiter(request);
    },
  };
}
