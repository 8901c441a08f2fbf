// The one shape of a failure the user can act on, shared by the modules that report one (feed fetches,
// sheets): a sentence for the user and a stable code for the program.

/** `message` is a sentence for the user; `code` a stable code; `cause` what went wrong underneath, for the log. */
export class CodedError<Code extends string> extends Error {
  constructor(
    message: string,
    readonly code: Code,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
