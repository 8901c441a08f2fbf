import { useCallback, useEffect, useRef, useState } from 'react';

/** Typing pauses this long before the tree (and so the page's query) hears of it. */
export const DRAFT_COMMIT_MS = 400;

/**
 * The text of a typed value: typing stays local and instant, `commit` gets the text after a pause,
 * on blur or on Enter (`flush`), so the tree and the page's query change once per pause instead of
 * once per keystroke.
 *
 * `committed` is the tree's value as text, `meaning` what a draft would commit as that same text
 * ("6.0" means "6"). A new `committed` that the draft does not already mean (an undo, a loaded view)
 * replaces the draft and drops a pending commit.
 */
export function useDraft(
  committed: string,
  commit: (text: string) => void,
  meaning: (draft: string) => string = (draft) => draft,
): { draft: string; setDraft: (text: string) => void; flush: () => void } {
  const [draft, setDraftState] = useState(committed);
  const draftRef = useRef(committed);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef(false);
  // The newest callbacks, so a timer set during an older render commits with today's path.
  const commitRef = useRef(commit);
  commitRef.current = commit;
  const meaningRef = useRef(meaning);
  meaningRef.current = meaning;

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const flush = useCallback(() => {
    cancel();
    if (!pending.current) return;
    pending.current = false;
    commitRef.current(draftRef.current);
  }, [cancel]);

  const setDraft = useCallback(
    (text: string) => {
      draftRef.current = text;
      setDraftState(text);
      pending.current = true;
      cancel();
      timer.current = setTimeout(flush, DRAFT_COMMIT_MS);
    },
    [cancel, flush],
  );

  useEffect(() => {
    if (meaningRef.current(draftRef.current) === committed) return;
    cancel();
    pending.current = false;
    draftRef.current = committed;
    setDraftState(committed);
  }, [committed, cancel]);

  // A row removed or a builder closed mid-pause: its late commit would land on someone else's path.
  useEffect(() => cancel, [cancel]);

  return { draft, setDraft, flush };
}
