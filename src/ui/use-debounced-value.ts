import { useEffect, useRef, useState } from 'react';

/** `value`, once it has stopped changing for `delayMs`: search boxes ask the server once per pause. */
export function useDebouncedValue<T>(value: T, delayMs = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * A search box whose text lives in the URL: typing stays local and instant, `onSearch` gets the
 * trimmed text after a pause, and a new `value` from the URL (going back in history) replaces the
 * text without fighting the typing. Answers the box's text and its setter.
 */
export function useUrlSearchText(
  value: string,
  onSearch: (text: string) => void,
  delayMs = 300,
): [string, (text: string) => void] {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, delayMs);
  // What the URL last said (or was last told).
  const lastSent = useRef(value);
  // The page this box is on. A pause that ends just after the user left (the router has moved on, the
  // page is not unmounted yet) must not write its search back and bring them back here.
  const page = useRef(window.location.pathname);
  useEffect(() => {
    if (value !== lastSent.current) {
      lastSent.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    const trimmed = debounced.trim();
    if (window.location.pathname !== page.current) return;
    if (trimmed !== lastSent.current) {
      lastSent.current = trimmed;
      onSearch(trimmed);
    }
  }, [debounced, onSearch]);
  return [text, setText];
}
