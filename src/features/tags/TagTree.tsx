// The tag tree on screen: only the rows in view are drawn (@tanstack/react-virtual), so a tree expanded
// whole — 50,000 rows — scrolls like a short one. It is an ARIA tree: one row is focusable at a time and
// the keyboard moves (↑ ↓ Home End), opens and closes (→ ←) and selects. Rows can be dragged onto
// another row to move the tag there, or onto the top-level strip; a drop that would put a tag inside
// itself is not offered (the server refuses it anyway).
import { Badge, Box, Button, HStack, IconButton, Spinner, Text } from '@chakra-ui/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { type DragEvent, type KeyboardEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { tagStatusLabels } from '../../../contracts/tags';
import { statusPalette } from './format';
import type { TagItem, TagTreeStore, VisibleRow } from './tree-store';

const ROW_HEIGHT = 36;
const DRAG_TYPE = 'application/x-marketplace-tag';

export function TagTree({
  store,
  selectedId,
  onSelect,
  canMove,
  onMove,
  showStatus,
  label,
  height = 560,
}: {
  store: TagTreeStore;
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Drag and drop is offered. */
  canMove: boolean;
  onMove: (id: string, parentId: string | null) => void;
  /** Draft trees show each tag's status against the published tree. */
  showStatus: boolean;
  label: string;
  height?: number;
}) {
  useSyncExternalStore(store.subscribe, store.getVersion);
  const rows = store.rows();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    // The box's size before it is measured (and where nothing measures, as in jsdom).
    initialRect: { width: 800, height },
  });
  const [dragging, setDragging] = useState<string | null>(null);
  const [dropOn, setDropOn] = useState<string | 'top' | null>(null);
  // Set by the keyboard: once the row is drawn, it takes the focus.
  const focusWanted = useRef<string | null>(null);

  const selectedIndex = rows.findIndex((row) => row.item.id === selectedId);
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

  /** Where a dragged tag may go: not into itself or below it, not where it already is. */
  const canDrop = (id: string | null, target: TagItem | null) => {
    const dragged = id ? store.item(id) : undefined;
    if (!id || !dragged) return false;
    if (target === null) return dragged.parentId !== null;
    return !store.isWithin(target.id, id) && dragged.parentId !== target.id;
  };
  const dropHandlers = (target: TagItem | null) => ({
    onDragOver: (event: DragEvent) => {
      if (!canDrop(dragging, target)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setDropOn(target?.id ?? 'top');
    },
    onDragLeave: () => setDropOn((current) => (current === (target?.id ?? 'top') ? null : current)),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      const id = event.dataTransfer.getData(DRAG_TYPE) || dragging;
      setDropOn(null);
      setDragging(null);
      if (canDrop(id, target)) onMove(id as string, target?.id ?? null);
    },
  });

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
          {...dropHandlers(null)}
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
      >
        {rows.length === 0 ? (
          <Box p="4" color="fg.muted" fontSize="sm">
            {store.isLoading(null) ? 'Loading tags…' : 'No tags yet.'}
          </Box>
        ) : null}
        <Box h={`${virtualizer.getTotalSize()}px`} position="relative" w="full">
          {virtualizer.getVirtualItems().map((virtual) => {
            const row = rows[virtual.index] as VisibleRow;
            const { item } = row;
            const selected = item.id === selectedId;
            return (
              <HStack
                key={item.id}
                data-tag-id={item.id}
                data-testid="tag-row"
                role="treeitem"
                aria-level={row.depth + 1}
                aria-expanded={item.childrenCount > 0 ? row.expanded : undefined}
                aria-selected={selected}
                aria-label={item.name}
                tabIndex={virtual.index === focusIndex ? 0 : -1}
                position="absolute"
                top="0"
                left="0"
                w="full"
                h={`${ROW_HEIGHT}px`}
                transform={`translateY(${virtual.start}px)`}
                ps={`${8 + row.depth * 20}px`}
                pe="2"
                gap="1.5"
                cursor="pointer"
                bg={dropOn === item.id ? 'brand.subtle' : selected ? 'bg.emphasized' : undefined}
                outline={dropOn === item.id ? '2px dashed' : undefined}
                outlineColor="brand.solid"
                _hover={{ bg: selected ? 'bg.emphasized' : 'bg.muted' }}
                _focusVisible={{
                  outline: '2px solid',
                  outlineColor: 'colorPalette.focusRing',
                  outlineOffset: '-2px',
                }}
                onClick={() => onSelect(item.id)}
                onKeyDown={(event) => onKeyDown(event, row, virtual.index)}
                draggable={canMove}
                onDragStart={(event) => {
                  event.dataTransfer.setData(DRAG_TYPE, item.id);
                  event.dataTransfer.effectAllowed = 'move';
                  setDragging(item.id);
                }}
                onDragEnd={() => {
                  setDragging(null);
                  setDropOn(null);
                }}
                {...dropHandlers(item)}
              >
                {item.childrenCount > 0 ? (
                  <IconButton
                    aria-label={`${row.expanded ? 'Collapse' : 'Expand'} ${item.name}`}
                    size="2xs"
                    variant="ghost"
                    tabIndex={-1}
                    onClick={(event) => {
                      event.stopPropagation();
                      void store.toggle(item.id);
                    }}
                  >
                    {row.loading ? <Spinner size="xs" /> : row.expanded ? <ChevronDown /> : <ChevronRight />}
                  </IconButton>
                ) : (
                  <Box w="6" flexShrink={0} />
                )}
                <Text truncate fontWeight={selected ? 'semibold' : 'normal'} minW="0">
                  {item.name}
                </Text>
                <Text fontSize="xs" color="fg.muted" truncate hideBelow="sm" minW="0">
                  {item.code}
                </Text>
                <HStack gap="1.5" ms="auto" flexShrink={0}>
                  {showStatus && item.status !== 'published' ? (
                    <Badge size="sm" colorPalette={statusPalette[item.status]} variant="subtle">
                      {tagStatusLabels[item.status]}
                    </Badge>
                  ) : null}
                  <Text
                    fontSize="xs"
                    color="fg.muted"
                    title="Products in this tag and below it"
                    hideBelow="sm"
                  >
                    {item.productTotal.toLocaleString('en-US')}
                  </Text>
                </HStack>
              </HStack>
            );
          })}
        </Box>
      </Box>
    </Box>
  );
}
