// Voice calls and call history (issue 6; SPEC §3 "Call log", §4 voice device / call status / calling
// status, §7 "Call history" and "Voice"). Shared by the server, the call UI, the statecharts and the tests.
import { z } from 'zod';
import { intParam } from './int-param';

/** The route of the call history page (contracts/routes.ts). */
export const CALL_HISTORY_ROUTE = '/calls/call-history';
/**
 * Who may call: whoever may open the calls page. The voice token route demands it, and the shell starts
 * the call UI (phone button, voice token) only for users whose effective permissions grant it — a
 * blocked seller's permissions hold only their subscription page, so they never get a phone.
 */
export const CALL_PERMISSION = { route: CALL_HISTORY_ROUTE, action: 'view' } as const;
export function canUseCalls(permissions: Readonly<Record<string, readonly string[]>>): boolean {
  return permissions[CALL_PERMISSION.route]?.includes(CALL_PERMISSION.action) ?? false;
}
/** Call history pages 20 at a time (SPEC §9 says nothing for this list; 20 like the chat list). */
export const CALL_PAGE_SIZE = 20;
export const MAX_FEEDBACK_LENGTH = 2000;

/** SPEC §4 "Voice device states": shown exactly as written. */
export const DEVICE_STATES = {
  disconnected: 'Disconnected',
  registering: 'Registering Device',
  ready: 'Ready to make or receive calls',
  offline: 'Device Offline',
  notReady: "Device isn't ready yet",
  destroyed: 'Device Destroyed',
} as const;
export type DeviceStateText = (typeof DEVICE_STATES)[keyof typeof DEVICE_STATES];

/** SPEC §4 "Call status values": what a call log records as its outcome. */
export const callStatuses = [
  'Not Picked',
  'Connected',
  'Call Cancelled',
  'Call Disconnected',
  'Rejected',
  'Call Ignored',
] as const;
export type CallStatus = (typeof callStatuses)[number];

/** SPEC §4 "Calling status texts": what the call UI shows, exactly as written (typo included). */
export const CALLING_STATUS = {
  idle: 'No Active Calls',
  incoming: 'Incoming Call',
  connecting: 'Call Connecting',
  onCall: 'On Call',
  connected: 'Call Connected',
  muted: 'Call is Muted',
  reconnecting: 'Reconnecting...',
  reconnected: 'Call Reconnected.',
  rejected: 'Call Rejected',
  ignored: 'Call Ignored',
  cancelled: 'Call Cancelled',
  disconnected: 'Call Disconnected',
  error: 'Error Occured',
} as const;
export type CallingStatusText = (typeof CALLING_STATUS)[keyof typeof CALLING_STATUS];

/** SPEC §8: call errors are only logged, with these texts. */
export const UNABLE_TO_MAKE_CALL = 'Unable to make call.';
/**
 * Why an outgoing call rang no one, in words for the caller, shown under the calling status (which stays
 * the SPEC's "Call Disconnected", and the log's "Not Picked").
 */
export const NOT_IN_SERVICE_MESSAGE = 'The number you dialled is not in service.';
export const CALLEE_CANNOT_TAKE_CALLS_MESSAGE = 'The person you called cannot take calls right now.';
export const NO_ACTIVE_INCOMING = 'No active incoming connection to accept/ignore/reject.';

/** SPEC §3: INCOMING for inbound; OUTGOING for calls this user dialled. */
export const referenceTypes = ['INCOMING', 'OUTGOING'] as const;
export type ReferenceType = (typeof referenceTypes)[number];

/**
 * SPEC §3 names "TWILIO"; calls of the embedded local provider (WebRTC between users of this
 * installation) are logged as "LOCAL".
 */
export const callSources = ['TWILIO', 'LOCAL'] as const;
export type CallSource = (typeof callSources)[number];

/** What a call carried: voice calls (Twilio or local) and video calls between users (issue 13). */
export const callMedia = ['voice', 'video'] as const;
export type CallMedia = (typeof callMedia)[number];

export const INVALID_PHONE_MESSAGE =
  'Enter a valid phone number (6 to 15 digits, optionally starting with +)';

/**
 * A phone number as people type it ("+91 90000 00003", "(022) 555-0101"): digits with spaces,
 * dashes, dots and parentheses, optionally a leading +. Normalised to `+digits` or `digits`.
 */
export function normalisePhoneNumber(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+?[0-9 ().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/[^0-9]/g, '');
  if (digits.length < 6 || digits.length > 15) return null;
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

/** Only the digits: how numbers are compared (a dialled "+91 90000 00003" rings "+919000000003"). */
export function phoneDigits(input: string): string {
  return input.replace(/[^0-9]/g, '');
}

export const phoneNumberSchema = z
  .string()
  .max(40, INVALID_PHONE_MESSAGE)
  .transform((value, context) => {
    const normalised = normalisePhoneNumber(value);
    if (normalised === null) {
      context.addIssue({ code: 'custom', message: INVALID_PHONE_MESSAGE });
      return z.NEVER;
    }
    return normalised;
  });

const isoDate = z.string().datetime({ offset: true, message: 'Dates must be ISO 8601' });

/** SPEC §3 callDetails. Duration in whole seconds; times ISO 8601; null until known. */
export const callDetailsSchema = z.object({
  callDuration: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(0),
  callStartedAt: isoDate.nullable().default(null),
  callStatus: z.enum(callStatuses),
  callEndedAt: isoDate.nullable().default(null),
});
export type CallDetails = z.infer<typeof callDetailsSchema>;

/** SPEC §3 feedbackData: the feedback modal's rating and text. */
export const feedbackDataSchema = z.object({
  rating: z.number().int().min(1, 'Rate the call from 1 to 5').max(5, 'Rate the call from 1 to 5'),
  text: z
    .string()
    .trim()
    .max(MAX_FEEDBACK_LENGTH, `Feedback must be at most ${MAX_FEEDBACK_LENGTH} characters`),
});
export type FeedbackData = z.infer<typeof feedbackDataSchema>;

/** POST /api/v1/callHistory/method/generateCall (SPEC §7): answers `{ data: { callId } }`. */
export const generateCallBodySchema = z.object({
  phoneNumber: phoneNumberSchema,
  referenceType: z.enum(referenceTypes),
  callDetails: callDetailsSchema,
  source: z.enum(callSources),
});
export type GenerateCallBody = z.input<typeof generateCallBodySchema>;
export const generateCallResponseSchema = z.object({ data: z.object({ callId: z.string() }) });

/**
 * PUT /api/v1/callHistory/method/updateHistory/{callId} (SPEC §7): the call's details as they now
 * stand, and the feedback once given. At least one of the two.
 */
export const updateHistoryBodySchema = z
  .object({ callDetails: callDetailsSchema.optional(), feedbackData: feedbackDataSchema.optional() })
  .refine((body) => body.callDetails || body.feedbackData, 'Send callDetails, feedbackData or both');
export type UpdateHistoryBody = z.input<typeof updateHistoryBodySchema>;

/** One step of a call's timeline (the detail view): created, each status change, feedback. */
export const callTimelineEntrySchema = z.object({
  at: z.string(),
  event: z.enum(['created', 'status', 'feedback']),
  callStatus: z.enum(callStatuses).optional(),
  note: z.string().optional(),
});
export type CallTimelineEntry = z.infer<typeof callTimelineEntrySchema>;

/** One call log as lists and the detail view show it. */
export const callLogSchema = z.object({
  callId: z.string(),
  /** The other party's number. */
  phoneNumber: z.string(),
  /** The other party, when the number belongs to a user of this installation. */
  peerName: z.string().nullable(),
  referenceType: z.enum(referenceTypes),
  source: z.enum(callSources),
  /** A video call's log says so; every earlier log is a voice call. */
  media: z.enum(callMedia).default('voice'),
  callDetails: callDetailsSchema,
  feedbackData: feedbackDataSchema.nullable(),
  /** Whose log it is (admins see everyone's). */
  owner: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
});
export type CallLog = z.infer<typeof callLogSchema>;

export const callLogDetailSchema = callLogSchema.extend({ timeline: z.array(callTimelineEntrySchema) });
export type CallLogDetail = z.infer<typeof callLogDetailSchema>;

/**
 * listCallHistory and searchCallHistory answer a page and how many match. Counting stops at 1,000:
 * past that `count` is 1,000 and `countCapped` is true (show "1,000+"; later pages are still served,
 * filters narrow the list).
 */
export const callListSchema = z.object({
  result: z.array(callLogSchema),
  count: z.number().int(),
  countCapped: z.boolean().optional(),
});
export type CallList = z.infer<typeof callListSchema>;

const pageQuery = {
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(CALL_PAGE_SIZE),
};

export const listCallHistoryQuerySchema = z.object(pageQuery);

/** searchCallHistory's filters (issue 6): part of a number, status, direction, date range. */
export const searchCallHistoryQuerySchema = z
  .object({
    ...pageQuery,
    /** Digits anywhere in the other party's number ("0003" finds "+91 90000 00003"). */
    number: z
      .string()
      .trim()
      .max(20, 'Search at most 20 digits')
      .regex(/^[0-9 +().-]*$/, 'Search by digits only')
      .optional(),
    status: z.enum(callStatuses).optional(),
    direction: z.enum(referenceTypes).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'The start of the date range must be before its end',
    path: ['from'],
  });
export type SearchCallHistoryQuery = z.input<typeof searchCallHistoryQuerySchema>;

/**
 * GET /api/v1/voice/method/getAccessToken (SPEC §7): `data.token`, the voice token. `provider` says
 * which device the browser loads: Twilio's SDK when the server has TWILIO_* set, otherwise the local
 * WebRTC provider. `phoneNumber` is the user's own number (what callees see as "From:").
 */
export const voiceProviders = ['twilio', 'local'] as const;
export type VoiceProvider = (typeof voiceProviders)[number];
export const voiceTokenResponseSchema = z.object({
  data: z.object({
    token: z.string(),
    provider: z.enum(voiceProviders),
    identity: z.string(),
    phoneNumber: z.string(),
    /** Epoch ms: the device asks for a new token before this. */
    expiresAt: z.number(),
  }),
});
export type VoiceToken = z.infer<typeof voiceTokenResponseSchema>['data'];
