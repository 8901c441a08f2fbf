// The toaster itself (SPEC §8/§9): the store, the way a toast is created in it, and `<AppToaster />`
// that draws it. The app calls it through `notify.ts`, which loads this module with the first toast:
// the sign-in page renders without it.
//
// `toaster` is a module singleton (Chakra's `createToaster` is a plain store), so `notify` works
// from anywhere: React event handlers, services, and XState actions provided in `src/app`, with
// no React context. `<AppToaster />` (rendered once by `UiProvider`) subscribes to the store and
// draws whatever is in it.
import { Box, Button, createToaster, HStack, Portal, Stack, Toast, Toaster } from '@chakra-ui/react';
import { Bell, CircleCheck, CircleX, Info, type LucideIcon, TriangleAlert } from 'lucide-react';
import {
  DEFAULT_TOAST_DURATION,
  type NotifyOptions,
  TOAST_DURATION,
  TOAST_PLACEMENT,
  TOAST_TYPES,
  type ToastAction,
  type ToastType,
} from './toast-options';

// Chakra's store only knows success/error/warning/info/loading: it ranks queued toasts by type
// and throws on an unknown one. So 'notification' and 'default' are stored as 'info' (lowest
// priority) and the product type travels in `meta.kind`, which the renderer reads.
type StoreType = 'success' | 'error' | 'warning' | 'info';

const STORE_TYPE: Record<ToastType, StoreType> = {
  success: 'success',
  error: 'error',
  warning: 'warning',
  info: 'info',
  notification: 'info',
  default: 'info',
};

interface ToastMeta {
  kind: ToastType;
  actions?: readonly ToastAction[];
}

export const toaster = createToaster({
  placement: TOAST_PLACEMENT,
  // A toast that fires while the back-office tab is hidden should still be there when the user
  // comes back to it.
  pauseOnPageIdle: true,
  max: 5,
  // Below the 3.5rem header, so toasts never cover the bell or the account menu (a toast under the
  // pointer pauses and would stay over them).
  offsets: { top: '4.5rem', right: '1rem', bottom: '1rem', left: '1rem' },
});

export function durationFor(type: ToastType): number {
  return type === 'default' ? DEFAULT_TOAST_DURATION : TOAST_DURATION;
}

/** Shows a toast and returns its id (for `dismissToast` or a later update). */
export function notify(options: NotifyOptions): string {
  const { type, title, description, duration, action, actions, closable, id } = options;
  const meta: ToastMeta = { kind: type, ...(actions?.length ? { actions } : {}) };
  return toaster.create({
    type: STORE_TYPE[type],
    title,
    duration: duration ?? durationFor(type),
    meta,
    // Only defined keys: `toaster.create` with an existing id merges, so an `undefined` here
    // would wipe a field of the toast being updated.
    ...(description !== undefined && { description }),
    ...(action && { action }),
    ...(closable !== undefined && { closable }),
    ...(id !== undefined && { id }),
  });
}

/** Dismisses one toast by id, or every toast without an id. */
export function dismissToast(id?: string): void {
  toaster.dismiss(id);
}

/** The product type of a stored toast (also for toasts created straight through `toaster`). */
export function toastKind(toast: { type?: string | undefined; meta?: Record<string, unknown> | undefined }) {
  const kind = toast.meta?.kind;
  if (typeof kind === 'string' && (TOAST_TYPES as readonly string[]).includes(kind)) return kind as ToastType;
  if (toast.type && (TOAST_TYPES as readonly string[]).includes(toast.type)) return toast.type as ToastType;
  return 'default';
}

const ICONS: Partial<Record<ToastType, LucideIcon>> = {
  success: CircleCheck,
  error: CircleX,
  warning: TriangleAlert,
  info: Info,
  notification: Bell,
};

// Chakra's toast recipe colours success, warning and error solid; info is left as a plain panel.
// Give info (and notification, which looks like info) the same solid treatment in blue so the
// four coloured types read as one family; 'default' stays the neutral panel.
const infoLook = {
  bg: 'blue.solid',
  color: 'blue.contrast',
  '--toast-trigger-bg': '{white/10}',
  '--toast-border-color': '{white/40}',
} as const;

export function AppToaster() {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => {
          const kind = toastKind(toast);
          const Icon = ICONS[kind];
          const extra = (toast.meta as Partial<ToastMeta> | undefined)?.actions ?? [];
          return (
            <Toast.Root
              width={{ md: 'sm' }}
              data-kind={kind}
              css={kind === 'info' || kind === 'notification' ? infoLook : undefined}
            >
              {Icon && (
                <Box flexShrink={0} mt="0.5" aria-hidden>
                  <Icon size={18} />
                </Box>
              )}
              <Stack gap="1" flex="1" maxWidth="100%">
                {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
                {/* Full strength: the recipe's 0.8 opacity drops white on the solid colours below 4.5:1. */}
                {toast.description && <Toast.Description opacity="1">{toast.description}</Toast.Description>}
                {(toast.action || extra.length > 0) && (
                  <HStack gap="2" mt="1" wrap="wrap">
                    {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
                    {extra.map((item) => (
                      <Button
                        key={item.label}
                        size="xs"
                        variant="outline"
                        color="inherit"
                        borderColor="var(--toast-border-color, currentColor)"
                        onClick={() => {
                          item.onClick();
                          toaster.dismiss(toast.id);
                        }}
                      >
                        {item.label}
                      </Button>
                    ))}
                  </HStack>
                )}
              </Stack>
              {toast.closable !== false && <Toast.CloseTrigger aria-label="Close" />}
            </Toast.Root>
          );
        }}
      </Toaster>
    </Portal>
  );
}
