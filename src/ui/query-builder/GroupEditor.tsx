import { Badge, Button, HStack, IconButton, SegmentGroup, Stack, Text } from '@chakra-ui/react';
import { Plus, Trash2 } from 'lucide-react';
import { Fragment, memo, useId, useRef } from 'react';
import { isGroup, type QueryGroup } from '../../../contracts/query-tree';
import { focusKeys, groupName, samePath, useBuilder, useFocusRequest } from './builder-context';
import { ConditionRow } from './ConditionRow';
import {
  addCondition,
  addGroup,
  canAddGroupAtDepth,
  type LimitCheck,
  newCondition,
  type QueryPath,
  removeNode,
  setCombinator,
} from './tree-edit';

/** One colour per nesting level, so the eye can follow which conditions belong together. */
const LEVEL_COLOURS = ['blue.solid', 'purple.solid', 'teal.solid', 'orange.solid'] as const;

const COMBINATOR_ITEMS = [
  { value: 'and', label: 'all' },
  { value: 'or', label: 'any' },
];

/** The first reason found among checks, or null when all allow. */
const firstReason = (...checks: LimitCheck[]) =>
  checks.map((check) => (check.allowed ? null : check.reason)).find((reason) => reason !== null) ?? null;

interface GroupEditorProps {
  group: QueryGroup;
  path: QueryPath;
}

/**
 * A group: "Match all / any of", its children (each after the first led by AND or OR, so which one
 * applies is never in doubt), nested groups indented behind a coloured border, and the add buttons,
 * disabled with their reason at the query's limits.
 */
export const GroupEditor = memo(function GroupEditor({ group, path }: GroupEditorProps) {
  const { fields, edit, disabled, conditionRoom, requestFocus } = useBuilder();
  const pathRef = useRef(path);
  pathRef.current = path;
  const addButton = useRef<HTMLButtonElement>(null);
  useFocusRequest(focusKeys.addCondition(path), addButton);
  const reasonId = useId();
  const name = groupName(path);
  const nested = path.length > 0;
  const firstField = fields[0];
  const noFields: LimitCheck = firstField
    ? { allowed: true }
    : { allowed: false, reason: 'There are no fields to filter on.' };
  const conditionBlocked = firstReason(noFields, conditionRoom);
  const groupBlocked = firstReason(noFields, canAddGroupAtDepth(path), conditionRoom);
  // Both buttons blocked for the same reason (the condition limit) say it once.
  const reasons = [...new Set([conditionBlocked, groupBlocked].filter((reason) => reason !== null))];
  const joiner = group.combinator === 'and' ? 'AND' : 'OR';
  const joinerColour = group.combinator === 'and' ? 'blue' : 'orange';

  const onAddCondition = () => {
    if (!firstField) return;
    requestFocus(focusKeys.field([...path, group.children.length]));
    edit((tree) => addCondition(tree, pathRef.current, newCondition(firstField)));
  };
  const onAddGroup = () => {
    if (!firstField) return;
    requestFocus(focusKeys.field([...path, group.children.length, 0]));
    // A group inside an AND group is nearly always there to say OR, and the other way round.
    const combinator = group.combinator === 'and' ? 'or' : 'and';
    edit((tree) => addGroup(tree, pathRef.current, { combinator, children: [newCondition(firstField)] }));
  };
  const onRemove = () => {
    requestFocus(focusKeys.addCondition(path.slice(0, -1)));
    edit((tree) => removeNode(tree, pathRef.current));
  };

  return (
    <Stack
      role="group"
      aria-label={name}
      gap="3"
      {...(nested
        ? {
            borderLeftWidth: '3px',
            borderColor: LEVEL_COLOURS[(path.length - 1) % LEVEL_COLOURS.length],
            pl: '4',
            py: '1',
          }
        : {})}
    >
      <HStack gap="2" wrap="wrap">
        <Text fontSize="sm">Match</Text>
        <SegmentGroup.Root
          size="xs"
          aria-label="Match"
          value={group.combinator}
          disabled={disabled}
          onValueChange={(details) => {
            const combinator = details.value;
            if (combinator === 'and' || combinator === 'or') {
              edit((tree) => setCombinator(tree, pathRef.current, combinator));
            }
          }}
        >
          <SegmentGroup.Indicator />
          <SegmentGroup.Items items={COMBINATOR_ITEMS} />
        </SegmentGroup.Root>
        <Text fontSize="sm">of the following</Text>
        {nested ? (
          <IconButton
            aria-label={`Remove ${name.toLowerCase()}`}
            size="xs"
            variant="ghost"
            ms="auto"
            disabled={disabled}
            onClick={onRemove}
          >
            <Trash2 />
          </IconButton>
        ) : null}
      </HStack>

      {group.children.length ? (
        <Stack gap="2">
          {group.children.map((child, index) => {
            const childPath = [...path, index];
            return (
              // Children are addressed by position, as the tree addresses them; edits never reorder.
              // biome-ignore lint/suspicious/noArrayIndexKey: the index is the node's identity in the tree
              <Fragment key={index}>
                {index > 0 ? (
                  // Said once by "Match all / any" for screen readers; repeated here for the eye.
                  <Badge
                    aria-hidden
                    alignSelf="flex-start"
                    size="sm"
                    variant="surface"
                    colorPalette={joinerColour}
                  >
                    {joiner}
                  </Badge>
                ) : null}
                {isGroup(child) ? (
                  <GroupEditor group={child} path={childPath} />
                ) : (
                  <ConditionRow condition={child} path={childPath} />
                )}
              </Fragment>
            );
          })}
        </Stack>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {nested ? 'This group has no conditions; it is left out.' : 'No conditions: everything matches.'}
        </Text>
      )}

      <HStack gap="2" wrap="wrap">
        <Button
          ref={addButton}
          size="xs"
          variant="outline"
          disabled={disabled || conditionBlocked !== null}
          aria-describedby={conditionBlocked ? reasonId : undefined}
          aria-label={`Add condition to ${name.toLowerCase()}`}
          onClick={onAddCondition}
        >
          <Plus /> Condition
        </Button>
        <Button
          size="xs"
          variant="outline"
          disabled={disabled || groupBlocked !== null}
          aria-describedby={groupBlocked ? reasonId : undefined}
          aria-label={`Add group to ${name.toLowerCase()}`}
          onClick={onAddGroup}
        >
          <Plus /> Group
        </Button>
        {reasons.length ? (
          <Text id={reasonId} fontSize="xs" color="fg.muted">
            {reasons.join(' ')}
          </Text>
        ) : null}
      </HStack>
    </Stack>
  );
}, sameGroup);

function sameGroup(before: GroupEditorProps, after: GroupEditorProps) {
  return (
    samePath(before.path, after.path) &&
    (before.group === after.group || JSON.stringify(before.group) === JSON.stringify(after.group))
  );
}
