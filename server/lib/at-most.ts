/**
 * Waits for `promise`, or `ms` at most, whichever comes first (it never rejects). For a graceful close
 * that depends on a peer answering (a Redis QUIT, a broker's goodbye): after `ms` the caller cuts
 * what is left instead of waiting for ever.
 */
export async function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
