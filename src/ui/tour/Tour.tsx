// The page guide: a help button in the page header that walks through the page step by step.
//
// Built on Chakra's Dialog rather than a tour library: the Dialog already gives focus trapping,
// Escape to close, aria wiring and portal/z-index handling, and a tour is just a dialog whose
// content changes. A step pointing at a control that is on screen is placed next to it with a
// spotlight around it; a step without a target (or whose target the page has not marked up, or
// that is hidden) is shown centred.
import {
  Box,
  Button,
  CloseButton,
  Dialog,
  HStack,
  IconButton,
  type IconButtonProps,
  Portal,
  Text,
} from '@chakra-ui/react';
import { CircleHelp } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { TourStep } from './tour-texts';

const CARD_WIDTH = 360;
const GAP = 12;
const VIEWPORT_MARGIN = 16;
/** Room needed below a target to put the card there instead of above it. */
const CARD_ROOM = 220;

interface Rect {
  top: number;
  left: number;
  width: number;
  height: number;
}

/** The on-screen box of the step's target, or null when there is none to point at. */
function useTargetRect(selector: string | undefined): Rect | null {
  const [rect, setRect] = useState<Rect | null>(null);

  useEffect(() => {
    if (!selector) {
      setRect(null);
      return;
    }
    let element: Element | null = null;
    try {
      element = document.querySelector(selector);
    } catch {
      // A malformed selector in the texts must not break the guide: show the step centred.
    }
    const measure = () => {
      const box = element?.getBoundingClientRect();
      // Zero size means hidden (display: none, collapsed section): nothing to point at.
      setRect(box && box.width > 0 && box.height > 0 ? box : null);
    };
    element?.scrollIntoView?.({ block: 'center', inline: 'nearest' });
    measure();
    if (!element) return;
    window.addEventListener('resize', measure);
    // Capture: scrolling any container (not only the window) can move the target.
    window.addEventListener('scroll', measure, true);
    return () => {
      window.removeEventListener('resize', measure);
      window.removeEventListener('scroll', measure, true);
    };
  }, [selector]);

  return rect;
}

/**
 * Card position next to the target: below it when there is room, above it when there is room there;
 * over a target too tall for either (a long table, a phone's screen), at the bottom of the screen, so
 * the card and its buttons are always in view.
 */
export function placeCard(
  target: Rect,
  viewportWidth = window.innerWidth,
  viewportHeight = window.innerHeight,
) {
  const width = Math.min(CARD_WIDTH, viewportWidth - 2 * VIEWPORT_MARGIN);
  const centred = target.left + target.width / 2 - width / 2;
  const left = Math.max(VIEWPORT_MARGIN, Math.min(centred, viewportWidth - width - VIEWPORT_MARGIN));
  if (viewportHeight - (target.top + target.height) >= CARD_ROOM)
    return { left, width, top: target.top + target.height + GAP };
  if (target.top - GAP >= CARD_ROOM) return { left, width, bottom: viewportHeight - target.top + GAP };
  return { left, width, bottom: VIEWPORT_MARGIN };
}

export interface TourDialogProps {
  steps: readonly TourStep[];
  open: boolean;
  onClose: () => void;
}

/** The step-by-step guide itself; controlled so a page could also open it on first visit. */
export function TourDialog({ steps, open, onClose }: TourDialogProps) {
  const [index, setIndex] = useState(0);
  const nextRef = useRef<HTMLButtonElement>(null);
  const count = steps.length;
  const current = Math.min(index, Math.max(0, count - 1));
  const step = steps[current];
  const isFirst = current === 0;
  const isLast = current === count - 1;
  const target = useTargetRect(open ? step?.target : undefined);

  // Every opening starts from the first step.
  const close = useCallback(() => {
    setIndex(0);
    onClose();
  }, [onClose]);
  const back = () => setIndex(Math.max(0, current - 1));
  const next = () => (isLast ? close() : setIndex(current + 1));

  // Arrow keys page through the guide; Escape is already handled by the Dialog.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' && !isLast) setIndex(current + 1);
    else if (event.key === 'ArrowLeft' && !isFirst) setIndex(current - 1);
  };

  if (!step) return null;
  const placement = target ? placeCard(target) : null;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) close();
      }}
      placement="center"
      lazyMount
      unmountOnExit
      initialFocusEl={() => nextRef.current}
    >
      <Portal>
        {/* With a target the spotlight's shadow dims the page instead of the backdrop. */}
        {!target && <Dialog.Backdrop />}
        <Dialog.Positioner>
          {target && (
            <Box
              aria-hidden
              data-tour-spotlight
              position="fixed"
              pointerEvents="none"
              borderRadius="l2"
              top={`${target.top - 6}px`}
              left={`${target.left - 6}px`}
              width={`${target.width + 12}px`}
              height={`${target.height + 12}px`}
              boxShadow="0 0 0 9999px rgba(0, 0, 0, 0.5)"
              outline="2px solid"
              outlineColor="brand.solid"
              transition="all 200ms"
            />
          )}
          <Dialog.Content
            onKeyDown={onKeyDown}
            data-tour-step={current + 1}
            {...(placement && {
              position: 'fixed',
              m: '0',
              top: placement.top === undefined ? undefined : `${placement.top}px`,
              bottom: placement.bottom === undefined ? undefined : `${placement.bottom}px`,
              left: `${placement.left}px`,
              width: `${placement.width}px`,
            })}
            maxW={placement ? undefined : `${CARD_WIDTH + 80}px`}
          >
            <Dialog.Header>
              <Dialog.Title>{step.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{step.body}</Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer justifyContent="space-between">
              <Text textStyle="sm" color="fg.muted" aria-live="polite">
                Step {current + 1} of {count}
              </Text>
              <HStack gap="2">
                <Button variant="outline" size="sm" onClick={back} disabled={isFirst}>
                  Back
                </Button>
                <Button ref={nextRef} colorPalette="brand" size="sm" onClick={next}>
                  {isLast ? 'Done' : 'Next'}
                </Button>
              </HStack>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close guide" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

export interface TourButtonProps extends Omit<IconButtonProps, 'aria-label' | 'onClick' | 'children'> {
  /** Current route: the guide resets when it changes. */
  path: string;
  /** The guide of the page the user sees (`tourFor`): empty on pages without one, or not shown. */
  steps: readonly TourStep[];
}

/** "Page guide" button; renders nothing on pages without a guide. */
export function TourButton({ path, steps: guide, ...buttonProps }: TourButtonProps) {
  // Remember which page the guide was opened on: navigating away closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const close = useCallback(() => setOpenOn(null), []);

  if (guide.length === 0) return null;
  return (
    <>
      <IconButton
        aria-label="Page guide"
        title="Page guide"
        variant="ghost"
        size="sm"
        {...buttonProps}
        onClick={() => setOpenOn(path)}
      >
        <CircleHelp />
      </IconButton>
      {/* Keyed by page so each page's guide starts with fresh state (step 1). */}
      <TourDialog key={path} steps={guide} open={openOn === path} onClose={close} />
    </>
  );
}
