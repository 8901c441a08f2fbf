// Client events on the signalling server (voice and video calls) all work the same way: the payload is
// parsed with the contract's zod schema, the handler runs, and the client always gets an acknowledgement,
// `{ ok: true, ... }` or `{ ok: false, message }`. An unexpected failure is logged and answered with a
// generic message: never a stack or a database error.
import type { FastifyBaseLogger } from 'fastify';
import type { Socket } from 'socket.io';
import type { z } from 'zod';

/** The refusal every client event may get. */
export interface FailedAck {
  ok: false;
  message: string;
}

/** zod's own messages ("Invalid input: …") name no field; the contract's messages are complete. */
export function issueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid payload';
  return issue.message.startsWith('Invalid') && issue.path.length > 0
    ? `${issue.path.join('.')}: ${issue.message}`
    : issue.message;
}

export interface AckHandlerOptions {
  log: FastifyBaseLogger;
  /** What the client is told when the handler throws. */
  failedMessage: string;
  /** What the log says when the handler throws. */
  logMessage: string;
  /**
   * Runs this socket's events one after the other, in the order they arrived (a chain per socket): an
   * event may depend on the one before it (a trickled candidate sent right after the answer).
   */
  serial?: { tail: Promise<unknown> };
}

/** Listens to `event` on the socket: validates the payload, runs the handler, always acknowledges. */
export function onAcknowledged<S extends z.ZodType, A extends object>(
  // biome-ignore lint/suspicious/noExplicitAny: any socket of the signalling server (its events are untyped)
  socket: Socket<any, any, any, any>,
  event: string,
  schema: S,
  handler: (payload: z.output<S>) => Promise<A | FailedAck>,
  options: AckHandlerOptions,
): void {
  socket.on(event, (...args: unknown[]) => {
    const last = args.at(-1);
    const ack = typeof last === 'function' ? (args.pop() as (answer: A | FailedAck) => void) : () => {};
    const run = async () => {
      const parsed = schema.safeParse(args[0]);
      if (!parsed.success) return ack({ ok: false, message: issueMessage(parsed.error) });
      try {
        ack(await handler(parsed.data));
      } catch (error) {
        options.log.error({ err: error, event }, options.logMessage);
        ack({ ok: false, message: options.failedMessage });
      }
    };
    if (options.serial) options.serial.tail = options.serial.tail.then(run);
    else void run();
  });
}
