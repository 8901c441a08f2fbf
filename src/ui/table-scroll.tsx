// The box every wide table scrolls sideways in. When its table is wider than the box, a fading shadow
// on the side that has more columns says so (issue 26: at 1440 px columns were cut with no hint), and
// the box becomes a named, focusable region so keyboard users can scroll it too (axe
// scrollable-region-focusable). The shadows are decoration: screen readers are told by the name.
import { Box, type BoxProps, Table } from '@chakra-ui/react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

/** Which sides of a scrolling box hide content: what the hints show. */
export interface ScrollEdges {
  start: boolean;
  end: boolean;
}

/** Where a box stands in its sideways scroll (a pixel of rounding is not "more"). */
export function scrollEdges(
  box: Pick<HTMLElement, 'scrollLeft' | 'scrollWidth' | 'clientWidth'>,
): ScrollEdges {
  const hidden = box.scrollWidth - box.clientWidth;
  if (hidden <= 1) return { start: false, end: false };
  const left = Math.abs(box.scrollLeft);
  return { start: left > 1, end: left < hidden - 1 };
}

/** Watches a box's sideways overflow: on scroll, and when it or its content changes size. */
function useScrollEdges() {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState<ScrollEdges>({ start: false, end: false });
  const update = useCallback(() => {
    const box = ref.current;
    if (!box) return;
    const next = scrollEdges(box);
    setEdges((current) => (current.start === next.start && current.end === next.end ? current : next));
  }, []);
  // After every render: the table inside may have been swapped (skeleton → rows), so it is observed anew.
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    update();
    const observer = new ResizeObserver(update);
    observer.observe(box);
    for (const child of box.children) observer.observe(child);
    return () => observer.disconnect();
  });
  return { ref, edges, update };
}

function EdgeShadow({ side, shown }: { side: 'start' | 'end'; shown: boolean }) {
  return (
    <Box
      aria-hidden
      data-scroll-hint={side}
      data-shown={shown ? '' : undefined}
      position="absolute"
      top="0"
      bottom="0"
      {...(side === 'start' ? { insetStart: '0' } : { insetEnd: '0' })}
      w="8"
      pointerEvents="none"
      zIndex="1"
      bgGradient={side === 'start' ? 'to-r' : 'to-l'}
      gradientFrom={{ base: 'blackAlpha.400', _dark: 'blackAlpha.800' }}
      gradientTo="transparent"
      opacity={shown ? 1 : 0}
      transition="opacity 0.15s"
    />
  );
}

/**
 * A wide table's scrolling box (in place of Table.ScrollArea). `label` names the region keyboard users
 * scroll when the table overflows; the frame props (borderWidth, rounded, maxH) style the outer box.
 */
export function TableScroll({
  label,
  children,
  maxH,
  ...frame
}: { label: string; children: ReactNode } & Omit<BoxProps, 'children'>) {
  const { ref, edges, update } = useScrollEdges();
  const overflows = edges.start || edges.end;
  return (
    <Box position="relative" overflow="hidden" maxW="100%" {...frame}>
      <Table.ScrollArea
        ref={ref}
        maxH={maxH}
        onScroll={update}
        data-overflows={overflows ? '' : undefined}
        {...(overflows
          ? {
              role: 'region',
              'aria-label': `${label} (scrolls sideways)`,
              tabIndex: 0,
              focusVisibleRing: 'inside',
            }
          : {})}
      >
        {children}
      </Table.ScrollArea>
      <EdgeShadow side="start" shown={edges.start} />
      <EdgeShadow side="end" shown={edges.end} />
    </Box>
  );
}
