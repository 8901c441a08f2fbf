// The state of one form submission (pending, its answer or its error) for the public pages.
// Not TanStack Query: these pages render before the shell, and the data cache (with its library)
// loads with the shell, per signed-in user. There is nothing to cache here anyway.
import { useCallback, useRef, useState } from 'react';

export type SubmissionState<T> =
  | { status: 'idle' }
  | { status: 'pending' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

export function useSubmission<A extends unknown[], T>(action: (...args: A) => Promise<T>) {
  const [state, setState] = useState<SubmissionState<T>>({ status: 'idle' });
  const latest = useRef(0);
  const submit = useCallback(
    (...args: A) => {
      // Only the last submission's outcome is shown (a double submit never shows a stale answer).
      const attempt = ++latest.current;
      setState({ status: 'pending' });
      action(...args).then(
        (data) => attempt === latest.current && setState({ status: 'success', data }),
        (error: unknown) => attempt === latest.current && setState({ status: 'error', error }),
      );
    },
    [action],
  );
  return { state, submit };
}
