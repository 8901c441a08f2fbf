import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler, type ProfilerOnRenderCallback, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyQuery, QUERY_LIMITS, type QueryCondition, type QueryTree } from '../../../contracts/query-tree';
import { system } from '../theme';
import type { LoadOptions, ResolveOptionLabels } from './builder-context';
import { OPTION_SEARCH_DEBOUNCE_MS } from './EnumValuesPicker';
import { QueryBuilder } from './QueryBuilder';
import { testFields } from './test-fields';
import { DRAFT_COMMIT_MS } from './use-draft';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/**
 * A fake clock for the pauses (typing, option search): only timeouts are faked, so React and the
 * combobox keep their microtasks and animation frames. Testing Library's async wrapper waits on a
 * zero timeout that it only advances on jest's fake clock, hence the `jest` stand-in.
 */
function fakeClockUser() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

/** The builder as a page holds it: the tree in state, every change reported to `onChange`. */
function show(
  initial: QueryTree = emptyQuery(),
  extra: { loadOptions?: LoadOptions; resolveOptionLabels?: ResolveOptionLabels; disabled?: boolean } = {},
) {
  const onChange = vi.fn<(tree: QueryTree) => void>();
  function Page() {
    const [tree, setTree] = useState(initial);
    return (
      <QueryBuilder
        fields={testFields}
        value={tree}
        onChange={(next) => {
          onChange(next);
          setTree(next);
        }}
        {...extra}
      />
    );
  }
  render(
    <ChakraProvider value={system}>
      <Page />
    </ChakraProvider>,
  );
  return { onChange, lastTree: () => onChange.mock.lastCall?.[0] };
}

const region = (name: string) => screen.getByRole('group', { name });

type User = ReturnType<typeof userEvent.setup>;

async function pickField(user: User, row: HTMLElement, label: string) {
  const input = within(row).getByRole('combobox', { name: 'Field' });
  await user.click(input);
  await user.clear(input);
  // Pasted: typing letter by letter into a combobox that filters as it goes trips jsdom's selection tracking.
  await user.paste(label.slice(0, 4));
  await user.click(await screen.findByRole('option', { name: label }));
}

async function pickValues(user: User, row: HTMLElement, labels: string[]) {
  const input = within(row).getByRole('combobox', { name: 'Values' });
  await user.click(input);
  for (const label of labels) await user.click(await screen.findByRole('option', { name: label }));
  await user.keyboard('{Escape}');
}

describe('<QueryBuilder />', () => {
  it('builds "status is any of Live AND (colour is any of Red OR screen ≥ 6)" like a user would', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show();
    expect(screen.getByText('No conditions: everything matches.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Add condition to query' }));
    // The new row takes the focus, ready for its field.
    expect(within(region('Condition 1')).getByRole('combobox', { name: 'Field' })).toHaveFocus();
    await pickField(user, region('Condition 1'), 'Status');
    expect(within(region('Condition 1')).getByRole('combobox', { name: 'Operator' })).toHaveValue('anyOf');
    await pickValues(user, region('Condition 1'), ['Live']);

    await user.click(screen.getByRole('button', { name: 'Add group to query' }));
    const group = region('Group 2');
    // Inside an AND a new group means OR; the toggle says which applies.
    await user.click(within(group).getByRole('radio', { name: 'any' }));
    expect(within(group).getByRole('radio', { name: 'any' })).toBeChecked();
    await pickField(user, region('Condition 2.1'), 'Colour');
    await pickValues(user, region('Condition 2.1'), ['Red']);

    await user.click(within(group).getByRole('button', { name: 'Add condition to group 2' }));
    const screenRow = region('Condition 2.2');
    await pickField(user, screenRow, 'Screen size');
    await user.selectOptions(within(screenRow).getByRole('combobox', { name: 'Operator' }), '≥');
    const size = within(screenRow).getByRole('textbox', { name: 'Value (in)' });
    expect(within(screenRow).getByText('in')).toBeVisible();
    await user.type(size, '6');
    await user.tab();

    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [
        { field: 'status', op: 'anyOf', value: ['LIVE'] },
        {
          combinator: 'or',
          children: [
            { field: 'attr.color', op: 'anyOf', value: [3] },
            { field: 'attr.screen', op: 'gte', value: 6 },
          ],
        },
      ],
    });
    // Chips name the chosen options.
    expect(within(region('Condition 1')).getByRole('button', { name: 'Remove Live' })).toBeVisible();
    expect(within(region('Condition 2.1')).getByText('Red')).toBeVisible();
  });

  it('switching a field resets the operator and clears a value the new field cannot take', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({
      combinator: 'and',
      children: [{ field: 'title', op: 'equals', value: 'red' }],
    });
    const row = region('Condition 1');
    expect(within(row).getByRole('combobox', { name: 'Operator' })).toHaveValue('equals');
    expect(within(row).getByRole('textbox', { name: 'Value' })).toHaveValue('red');

    await pickField(user, row, 'Price');
    expect(lastTree()).toStrictEqual({ combinator: 'and', children: [{ field: 'price', op: 'eq' }] });
    expect(within(row).getByRole('combobox', { name: 'Field' })).toHaveValue('Price');
    expect(within(row).getByRole('combobox', { name: 'Operator' })).toHaveValue('eq');
    expect(within(row).getByRole('textbox', { name: 'Value' })).toHaveValue('');
    expect(within(row).getByText('Enter a number; until then this condition is left out.')).toBeVisible();
    expect(screen.getByText('1 condition has no value yet and is left out of the results.')).toBeVisible();
  });

  it('lists fields under their groups and filters them as the user types', async () => {
    const user = userEvent.setup({ delay: null });
    show({ combinator: 'and', children: [{ field: 'title', op: 'contains' }] });
    const input = within(region('Condition 1')).getByRole('combobox', { name: 'Field' });
    await user.click(input);
    const list = await screen.findByRole('listbox');
    expect(within(list).getByText('Attributes · Phones')).toBeVisible();
    expect(within(list).getAllByRole('option')).toHaveLength(testFields.length);
    await user.clear(input);
    // Pasted: typing letter by letter into a combobox that filters as it goes trips jsdom's selection tracking.
    await user.paste('phones');
    // The combobox's machine applies the typed text to the list on its own schedule (and may remount the
    // list when clearing closed it): wait for the filtered list, looked up afresh.
    await waitFor(() =>
      expect(
        within(screen.getByRole('listbox'))
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Screen size', 'Waterproof']),
    );
  });

  it('valueless operators need no value; ranges keep a half-typed end in the tree', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({ combinator: 'and', children: [{ field: 'price', op: 'eq', value: 5 }] });
    const row = region('Condition 1');
    const operator = within(row).getByRole('combobox', { name: 'Operator' });

    await user.selectOptions(operator, 'between');
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'price', op: 'between', value: [5, ''] }],
    });
    expect(within(row).getByRole('textbox', { name: 'From' })).toHaveValue('5');
    expect(
      within(row).getByText('Fill in both ends of the range; until then this condition is left out.'),
    ).toBeVisible();
    await user.type(within(row).getByRole('textbox', { name: 'To' }), '9');
    await user.keyboard('{Enter}');
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'price', op: 'between', value: [5, 9] }],
    });

    await user.selectOptions(operator, 'is empty');
    expect(lastTree()).toStrictEqual({ combinator: 'and', children: [{ field: 'price', op: 'isEmpty' }] });
    expect(within(row).queryByRole('textbox')).toBeNull();
  });

  it('dates are stored as ISO days', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({ combinator: 'and', children: [{ field: 'createdAt', op: 'before' }] });
    const date = within(region('Condition 1')).getByLabelText('Date');
    expect(date).toHaveAttribute('type', 'date');
    await user.type(date, '2026-01-31');
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'createdAt', op: 'before', value: '2026-01-31' }],
    });
  });

  it('commits typed text after a pause rather than on every keystroke', async () => {
    const user = fakeClockUser();
    const { onChange, lastTree } = show({
      combinator: 'and',
      children: [{ field: 'title', op: 'contains' }],
    });
    await user.type(within(region('Condition 1')).getByRole('textbox', { name: 'Value' }), 'shirt');
    expect(onChange).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(DRAFT_COMMIT_MS);
    });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'title', op: 'contains', value: 'shirt' }],
    });
  });

  it('disables the add buttons with the reason at the depth limit', () => {
    let tree: QueryTree = { combinator: 'or', children: [{ field: 'images', op: 'isEmpty' }] };
    for (let level = 1; level < QUERY_LIMITS.maxDepth; level += 1)
      tree = { combinator: 'and', children: [tree] };
    show(tree);
    const deepest = region('Group 1.1.1.1');
    expect(within(deepest).getByRole('button', { name: 'Add group to group 1.1.1.1' })).toBeDisabled();
    expect(within(deepest).getByRole('button', { name: 'Add condition to group 1.1.1.1' })).toBeEnabled();
    const reason = within(deepest).getByText('Groups can nest at most 5 levels deep.');
    expect(reason).toBeVisible();
    expect(
      within(deepest).getByRole('button', { name: 'Add group to group 1.1.1.1' }),
    ).toHaveAccessibleDescription('Groups can nest at most 5 levels deep.');
    expect(
      within(region('Group 1.1.1')).getByRole('button', { name: 'Add group to group 1.1.1' }),
    ).toBeEnabled();
  });

  it('renders fifty conditions and disables every add button with the reason at the condition limit', async () => {
    const user = userEvent.setup({ delay: null });
    const conditions: QueryCondition[] = Array.from(
      { length: QUERY_LIMITS.maxConditions - 1 },
      (_, index) => ({
        field: 'price',
        op: 'gt',
        value: index,
      }),
    );
    const { lastTree } = show({ combinator: 'and', children: conditions });
    await user.click(screen.getByRole('button', { name: 'Add condition to query' }));
    expect(lastTree()?.children).toHaveLength(QUERY_LIMITS.maxConditions);
    expect(screen.getAllByRole('group', { name: /^Condition / })).toHaveLength(QUERY_LIMITS.maxConditions);
    expect(screen.getByRole('button', { name: 'Add condition to query' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add group to query' })).toBeDisabled();
    expect(screen.getByText('A query can hold at most 50 conditions.')).toBeVisible();

    await user.click(within(region('Condition 50')).getByRole('button', { name: 'Remove condition 50' }));
    expect(screen.getByRole('button', { name: 'Add condition to query' })).toBeEnabled();
    expect(screen.queryByText('A query can hold at most 50 conditions.')).toBeNull();
  });

  it('an edit in a tree of fifty conditions re-renders its own row, not the whole tree', () => {
    const commits: { actual: number; base: number }[] = [];
    const onRender: ProfilerOnRenderCallback = (_id, _phase, actual, base) => commits.push({ actual, base });
    const children: QueryCondition[] = Array.from({ length: QUERY_LIMITS.maxConditions }, (_, index) =>
      index % 2
        ? { field: 'status', op: 'anyOf', value: ['LIVE'] }
        : { field: 'price', op: 'gt', value: index },
    );
    function Page() {
      const [tree, setTree] = useState<QueryTree>({ combinator: 'and', children });
      return (
        <Profiler id="builder" onRender={onRender}>
          <QueryBuilder fields={testFields} value={tree} onChange={setTree} />
        </Profiler>
      );
    }
    render(
      <ChakraProvider value={system}>
        <Page />
      </ChakraProvider>,
    );
    const value = within(region('Condition 25')).getByRole('textbox', { name: 'Value' });
    commits.length = 0;
    fireEvent.change(value, { target: { value: '7' } });
    fireEvent.blur(value);
    expect(value).toHaveValue('7');
    const [edit] = commits.slice(-1);
    // `base` is what rendering every row would cost; memoised rows make the edit a small part of it
    // (about a fortieth when measured; a quarter leaves room for a loaded machine).
    expect(edit!.actual).toBeLessThan(edit!.base / 4);
  });

  it('keeps the hint’s line when a typed value is committed on blur, so nothing below moves', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({
      combinator: 'and',
      children: [{ field: 'title', op: 'contains', value: '' }],
    });
    const row = region('Condition 1');
    const hint = within(row).getByTestId('condition-hint');
    expect(hint).toHaveTextContent('Enter some text; until then this condition is left out.');
    const value = within(row).getByRole('textbox', { name: 'Value' });
    await user.type(value, 'shoe');
    fireEvent.blur(value);
    expect(lastTree()?.children[0]).toMatchObject({ value: 'shoe' });
    // The same element, still in the row (its minimum height holds the line), now empty.
    expect(within(row).getByTestId('condition-hint')).toBe(hint);
    expect(hint).toHaveTextContent('');
    expect(row).not.toHaveAttribute('aria-describedby');
  });

  it('removes a whole group and gives the focus back to its parent', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({
      combinator: 'and',
      children: [
        { field: 'status', op: 'anyOf', value: ['LIVE'] },
        {
          combinator: 'or',
          children: [
            { field: 'attr.color', op: 'anyOf', value: [3] },
            { field: 'attr.screen', op: 'gte', value: 6 },
          ],
        },
      ],
    });
    await user.click(within(region('Group 2')).getByRole('button', { name: 'Remove group 2' }));
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'status', op: 'anyOf', value: ['LIVE'] }],
    });
    expect(screen.queryByRole('group', { name: 'Group 2' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add condition to query' })).toHaveFocus();
  });

  it('shows the problem of a condition on a field that no longer exists, and lets it go', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({
      combinator: 'and',
      children: [
        { field: 'attr.deleted', op: 'anyOf', value: [9] },
        { field: 'price', op: 'gt', value: 1 },
      ],
    });
    const row = region('Condition 1');
    expect(within(row).getByText('There is no field "attr.deleted" to filter on.')).toBeVisible();
    expect(within(row).getByRole('combobox', { name: 'Field' })).toHaveValue('');
    expect(within(row).queryByRole('combobox', { name: 'Operator' })).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'Remove condition 1' }));
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'price', op: 'gt', value: 1 }],
    });
  });

  it('searches a big option source, keeps chosen labels as the search moves on, and removes chips', async () => {
    const user = fakeClockUser();
    const sellers = [
      { value: 's1', label: 'Acme' },
      { value: 's2', label: 'Beta Goods' },
    ];
    const loadOptions = vi.fn<LoadOptions>(async (_source, search) =>
      sellers.filter((seller) => seller.label.toLowerCase().includes(search.toLowerCase())),
    );
    const { lastTree } = show(
      { combinator: 'and', children: [{ field: 'seller', op: 'anyOf' }] },
      { loadOptions },
    );
    const row = region('Condition 1');
    const input = within(row).getByRole('combobox', { name: 'Values' });
    await user.click(input);
    await user.click(await screen.findByRole('option', { name: 'Acme' }));
    expect(loadOptions).toHaveBeenCalledWith('sellers', '');

    await user.paste('bet');
    await act(() => vi.advanceTimersByTimeAsync(OPTION_SEARCH_DEBOUNCE_MS));
    expect(loadOptions).toHaveBeenLastCalledWith('sellers', 'bet');
    expect(loadOptions).toHaveBeenCalledTimes(2);
    await user.click(await screen.findByRole('option', { name: 'Beta Goods' }));
    await user.keyboard('{Escape}');

    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'seller', op: 'anyOf', value: ['s1', 's2'] }],
    });
    // Acme is no longer among the loaded options, yet its chip keeps its name.
    await user.click(within(row).getByRole('button', { name: 'Remove Acme' }));
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'seller', op: 'anyOf', value: ['s2'] }],
    });
    await user.click(within(row).getByRole('button', { name: 'Remove Beta Goods' }));
    expect(lastTree()).toStrictEqual({ combinator: 'and', children: [{ field: 'seller', op: 'anyOf' }] });
  });

  it('names chosen ids of a query opened from a link once the feature resolves them', async () => {
    const resolveOptionLabels = vi.fn<ResolveOptionLabels>(async () => [
      { value: 's9', label: 'Zeta Store' },
    ]);
    show(
      { combinator: 'and', children: [{ field: 'seller', op: 'anyOf', value: ['s9', 's10'] }] },
      { loadOptions: async () => [], resolveOptionLabels },
    );
    const row = region('Condition 1');
    expect(await within(row).findByRole('button', { name: 'Remove Zeta Store' })).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Remove s10' })).toBeVisible();
    expect(resolveOptionLabels).toHaveBeenCalledTimes(1);
    expect(resolveOptionLabels).toHaveBeenCalledWith('sellers', ['s9', 's10']);
  });

  it('disabled: nothing can be changed', () => {
    show({ combinator: 'and', children: [{ field: 'price', op: 'gt', value: 1 }] }, { disabled: true });
    expect(screen.getByRole('button', { name: 'Add condition to query' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove condition 1' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Value' })).toBeDisabled();
    expect(screen.getByRole('combobox', { name: 'Operator' })).toBeDisabled();
  });
});
