// The shop's look (Settings → Website) as the chat page paints it: the header, the customer's own
// bubbles and the primary buttons take the widget's colour, with text that reads on it.
import { readableTextOn } from '../../../contracts/domain/colour-contrast';
import type { WidgetLook } from './widget-api';

/** Inline styles: they win over the theme's recipes (hover included), so the look holds in every state. */
export interface LookFill {
  backgroundColor: string;
  color: string;
}

/**
 * The fill of the look: its colour, under its text colour, or black or white when that would read below
 * WCAG AA (contracts/domain/colour-contrast.ts). Null without a look: the page keeps the app's palette.
 */
export function lookFill(look: WidgetLook | null | undefined): LookFill | null {
  if (!look) return null;
  return { backgroundColor: look.colour, color: readableTextOn(look.colour, look.textColour) };
}
