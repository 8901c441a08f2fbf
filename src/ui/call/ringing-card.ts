// Where a ringing call's card sits, for the phone's incoming-call card, its mirror on other tabs and the
// video call's ringing card: under the 3.5rem header at the top right, where the app's toaster starts
// too — a ringing call outranks the toasts, so it sits over them (above the toaster's z-index, below
// tooltips) until it is answered.
export const RINGING_CARD_PLACEMENT = {
  position: 'fixed',
  top: '4.5rem',
  right: '4',
  left: { base: '4', md: 'auto' },
  width: { md: 'sm' },
  zIndex: 1750,
  size: 'sm',
  boxShadow: 'lg',
} as const;
