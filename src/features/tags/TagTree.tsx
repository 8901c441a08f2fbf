// The tag tree on screen: only the rows in view are drawn (@tanstack/react-virtual), so a tree expanded
// whole — 50,000 rows — scrolls like a short one. It is an ARIA tree: one row is focusable at a time and
// the keyboard moves (↑ ↓ Home End), opens and closes (→ ←) and selects. Rows can be dragged onto
// another row to move the tag there, or onto the top-level strip; a drop that would put a tag inside
// itself is not offered (the server refuses it anyway).
//
// A row is plain elements styled once, by the tree box's own `css` (their looks follow data attributes),
// and memoised: scrolling fast draws a screenful of new rows every frame, and a row built of styled
// components cost a frame ~30 ms to draw at that pace (bench `tags`, frames in Chromium).
import { Box, Button, Spinner, Text } from '@chakra-ui/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronRight } from 'lucide-react';
import {
  type DragEvent,
  type KeyboardEvent,
  memo,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { formatNumber } from '../../../contracts/domain/format';
import { tagStatusLabels } from '../../../contracts/tags';
import { statusPalette } from './format';
import type { TagItem, TagTreeStore, VisibleRow } from './tree-store';

const ROW_HEIGHT = 36;
const DRAG_TYPE = 'application/x-marketplace-tag';

/** What a row reports; one stable object, so a row redraws only when its own data changes. */
interface RowEvents {
  select(id: string): void;
  toggle(id: string): void;
  keyDown(event: KeyboardEvent<HTMLDivElement>, row: VisibleRow, index: number): void;
  dragStart(event: DragEvent, id: string): void;
  dragEnd(): void;
  dragOver(event: DragEvent, target: TagItem | null): void;
  dragLeave(target: TagItem | null): void;
  drop(event: DragEvent, target: TagItem | null): void;
}

/** The rows' looks, computed once for the whole tree. */
const treeCss = {
  '& [data-row]': {
    position: 'absolute',
    top: 0,
    left: 0,
    width: '100%',
    height: `${ROW_HEIGHT}px`,
    display: 'flex',
    alignItems: 'center',
    gap: '1.5',
    paddingInlineEnd: '2',
    cursor: 'pointer',
    _hover: { bg: 'bg.muted' },
    _focusVisible: { outline: '2px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '-2px' },
  },
  '& [data-row][aria-selected=true]': { bg: 'bg.emphasized', fontWeight: 'semibold' },
  '& [data-row][data-drop]': { bg: 'brand.subtle', outline: '2px dashed', outlineColor: 'brand.solid' },
  '& [data-toggle]': {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    width: '6',
    height: '6',
    flexShrink: 0,
    rounded: 'sm',
    color: 'fg.muted',
    _hover: { bg: 'bg.emphasized' },
    '& svg': { width: '4', height: '4' },
  },
  '& [data-name]': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 },
  '& [data-code]': {
    fontSize: 'xs',
    color: 'fg.muted',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    minWidth: 0,
    display: { base: 'none', sm: 'block' },
  },
  '& [data-meta]': {
    marginInlineStart: 'auto',
    display: 'flex',
    gap: '1.5',
    alignItems: 'center',
    flexShrink: 0,
  },
  '& [data-count]': { fontSize: 'xs', color: 'fg.muted', display: { base: 'none', sm: 'inline' } },
  '& [data-status]': {
    fontSize: 'xs',
    fontWeight: 'medium',
    paddingInline: '1.5',
    rounded: 'sm',
    lineHeight: '1.25rem',
  },
  ...Object.fromEntries(
    Object.entries(statusPalette).map(([status, palette]) => [
      `& [data-status=${status}]`,
      { bg: `${palette}.subtle`, color: `${palette}.fg` },
    ]),
  ),
} as const;

const TagRow = memo(function TagRow({
  row,
  start,
  index,
  selected,
  focusable,
  dropTarget,
  canMove,
  showStatus,
  events,
  idPrefix,
}: {
  row: VisibleRow;
  start: number;
  index: number;
  selected: boolean;
  focusable: boolean;
  dropTarget: boolean;
  canMove: boolean;
  showStatus: boolean;
  events: RowEvents;
  /** Unique to the tree: a page may show two trees of the same tags (ids must not repeat). */
  idPrefix: string;
}) {
  const { item } = row;
  const partId = (part: string) => `${idPrefix}-${item.id}-${part}`;
  return (
    <div
      data-row=""
      data-tag-id={item.id}
      data-testid="tag-row"
      data-drop={dropTarget ? '' : undefined}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={item.childrenCount > 0 ? row.expanded : undefined}
      aria-selected={selected}
      // Named by what it shows (WCAG 2.5.3, label in name): name, code, status and product count.
      aria-labelledby={['name', 'code', 'status', 'count'].map(partId).join(' ')}
      tabIndex={focusable ? 0 : -1}
      style={{ transform: `translateY(${start}px)`, paddingInlineStart: `${8 + row.depth * 20}px` }}
      onClick={() => events.select(item.id)}
      onKeyDown={(event) => events.keyDown(event, row, index)}
      draggable={canMove}
      onDragStart={(event) => events.dragStart(event, item.id)}
      onDragEnd={events.dragEnd}
      onDragOver={(event) => events.dragOver(event, item)}
      onDragLeave={() => events.dragLeave(item)}
      onDrop={(event) => events.drop(event, item)}
    >
      {item.childrenCount > 0 ? (
        <button
          type="button"
          data-toggle=""
          aria-label={`${row.expanded ? 'Collapse' : 'Expand'} ${item.name}`}
          tabIndex={-1}
          onClick={(event) => {
            event.stopPropagation();
            events.toggle(item.id);
          }}
        >
          {row.loading ? <Spinner size="xs" /> : row.expanded ? <ChevronDown /> : <ChevronRight />}
        </button>
      ) : (
        <span data-toggle="" aria-hidden />
      )}
      {/* The spaces between the parts are the words' boundaries in the row's text (not drawn: flex). */}
      <span data-name="" id={partId('name')}>
        {item.name}
      </span>{' '}
      <span data-code="" id={partId('code')}>
        {item.code}
      </span>{' '}
      <span data-meta="">
        {showStatus && item.status !== 'published' ? (
          <span data-status={item.status} id={partId('status')}>
            {tagStatusLabels[item.status]}
          </span>
        ) : null}{' '}
        <span data-count="" id={partId('count')} title="Products in this tag and below it">
          {formatNumber(item.productTotal)}
        </span>
      </span>
    </div>
  );
});

export function TagTree({
  store,
  selectedId,
  onSelect,
  onOpen,
  canMove,
  onMove,
  showStatus,
  label,
  height = 560,
}: {
  store: TagTreeStore;
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** A row clicked or tapped (not reached with the arrow keys): a phone opens the tag's details. */
  onOpen?: (id: string) => void;
  /** Drag and drop is offered. */
  canMove: boolean;
  onMove: (id: string, parentId: string | null) => void;
  /** Draft trees show each tag's status against the published tree. */
  showStatus: boolean;
  label: string;
  height?: number;
}) {
  const idPrefix = useId();
  const version = useSyncExternalStore(store.subscribe, store.getVersion);
  const rows = store.rows();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 4,
    // The box's size before it is measured (and where nothing measures, as in jsdom).
    initialRect: { width: 800, height },
  });
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropOn, setDropOn] = useState<string | 'top' | null>(null);
  // Set by the keyboard: once the row is drawn, it takes the focus.
  const focusWanted = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows change with the store's version
  const selectedIndex = useMemo(
    () => (selectedId ? rows.findIndex((row) => row.item.id === selectedId) : -1),
    [selectedId, version],
  );
  const focusIndex = selectedIndex >= 0 ? selectedIndex : 0;

  useEffect(() => {
    const wanted = focusWanted.current;
    if (!wanted) return;
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-tag-id="${wanted}"]`);
    if (element) {
      element.focus({ preventScroll: true });
      focusWanted.current = null;
    }
  });

  // A tag chosen elsewhere (a search result, the address) is scrolled into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: when the choice or its row appears
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedId, selectedIndex >= 0]);

  /** Where a dragged tag may go: not into itself or below it, not where it already is. */
  const canDrop = (id: string | null, target: TagItem | null) => {
    const dragged = id ? store.item(id) : undefined;
    if (!id || !dragged) return false;
    if (target === null) return dragged.parentId !== null;
    return !store.isWithin(target.id, id) && dragged.parentId !== target.id;
  };

  const moveFocus = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (!row) return;
    focusWanted.current = row.item.id;
    virtualizer.scrollToIndex(rows.indexOf(row), { align: 'auto' });
    onSelect(row.item.id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, row: VisibleRow, index: number) => {
    const { item } = row;
    switch (event.key) {
      case 'ArrowDown':
        moveFocus(index + 1);
        break;
      case 'ArrowUp':
        moveFocus(index - 1);
        break;
      case 'Home':
        moveFocus(0);
        break;
      case 'End':
        moveFocus(rows.length - 1);
        break;
      case 'ArrowRight':
        if (item.childrenCount > 0 && !row.expanded) void store.expand(item.id);
        else if (row.expanded) moveFocus(index + 1);
        break;
      case 'ArrowLeft':
        if (row.expanded) store.collapse(item.id);
        else if (item.parentId) moveFocus(rows.findIndex((candidate) => candidate.item.id === item.parentId));
        break;
      case 'Enter':
      case ' ':
        if (item.childrenCount > 0) void store.toggle(item.id);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  // The rows call through one stable object that reads the latest handlers.
  const latest = useRef({ onSelect, onOpen, onKeyDown, canDrop, onMove, dragging, store });
  latest.current = { onSelect, onOpen, onKeyDown, canDrop, onMove, dragging, store };
  const events = useMemo<RowEvents>(
    () => ({
      select: (id) => {
        latest.current.onSelect(id);
        latest.current.onOpen?.(id);
      },
      toggle: (id) => void latest.current.store.toggle(id),
      keyDown: (event, row, index) => latest.current.onKeyDown(event, row, index),
      dragStart: (event, id) => {
        event.dataTransfer.setData(DRAG_TYPE, id);
        event.dataTransfer.effectAllowed = 'move';
        setDragging(id);
      },
      dragEnd: () => {
        setDragging(null);
        setDropOn(null);
      },
      dragOver: (event, target) => {
        if (!latest.current.canDrop(latest.current.dragging, target)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setDropOn(target?.id ?? 'top');
      },
      dragLeave: (target) => setDropOn((current) => (current === (target?.id ?? 'top') ? null : current)),
      drop: (event, target) => {
        event.preventDefault();
        const id = event.dataTransfer.getData(DRAG_TYPE) || latest.current.dragging;
        setDropOn(null);
        setDragging(null);
        if (latest.current.canDrop(id, target)) latest.current.onMove(id as string, target?.id ?? null);
      },
    }),
    [],
  );

  const failure = store.failure(null);
  if (failure) {
    return (
      <Box role="alert" p="4" borderWidth="1px" rounded="md">
        <Text>{failure}</Text>
        <Button size="sm" mt="2" onClick={() => void store.load(null)}>
          Try again
        </Button>
      </Box>
    );
  }

  return (
    <Box>
      {canMove ? (
        // Always there (not only while dragging): appearing at the drag's start, it would push the
        // rows down under the pointer.
        <Box
          data-testid="drop-top-level"
          borderWidth="1px"
          borderStyle="dashed"
          borderColor={dropOn === 'top' ? 'brand.solid' : 'border'}
          bg={dropOn === 'top' ? 'brand.subtle' : undefined}
          rounded="md"
          px="2"
          py="1"
          mb="2"
          fontSize="xs"
          textAlign="center"
          color="fg.muted"
          onDragOver={(event) => events.dragOver(event, null)}
          onDragLeave={() => events.dragLeave(null)}
          onDrop={(event) => events.drop(event, null)}
        >
          Drop a tag here to make it a top-level tag
        </Box>
      ) : null}
      <Box
        ref={scrollRef}
        h={`${height}px`}
        overflowY="auto"
        borderWidth="1px"
        rounded="md"
        role="tree"
        aria-label={label}
        aria-busy={store.isLoading(null)}
        data-testid="tag-tree"
        // The box's layout and paint stay inside it: a frame of scrolling lays out its rows only.
        contain="strict"
        css={treeCss}
      >
        {rows.length === 0 ? (
          <Box p="4" color="fg.muted" fontSize="sm">
            {store.isLoading(null) ? 'Loading tags…' : 'No tags yet.'}
          </Box>
        ) : null}
        <div style={{ height: `${virtualizer.getTotalSize()}px`, position: 'relative', width: '100%' }}>
          {virtualizer.getVirtualItems().map((virtual) => {
            const row = rows[virtual.index] as VisibleRow;
            return (
              <TagRow
                key={row.item.id}
                row={row}
                start={virtual.start}
                index={virtual.index}
                selected={row.item.id === selectedId}
                focusable={virtual.index === focusIndex}
                dropTarget={dropOn === row.item.id}
                canMove={canMove}
                showStatus={showStatus}
                events={events}
                idPrefix={idPrefix}
              />
            );
          })}
        </div>
      </Box>
    </Box>
  );
}
