import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QueryField, QueryTree } from '../../../contracts/query-tree';
import type { TagNodeWithPath, TagTreeSource } from '../../../contracts/tags';
import { system } from '../theme';
import { QueryBuilder } from './QueryBuilder';
import { tagValueEditor, UNKNOWN_TAG_LABEL } from './TagValuesPicker';
import { testFields } from './test-fields';

// The tag tree as the services would read it: Apparel › Men › Shirts and Apparel › Women › Shirts.
const node = (id: string, pathNames: string[]) =>
  ({
    id,
    parentId: null,
    name: pathNames.at(-1) as string,
    code: id,
    level: pathNames.length,
    childrenCount: 0,
    productCount: 0,
    productTotal: 0,
    status: 'published',
    version: 1,
    updatedBy: 'Admin',
    updatedAt: '2026-01-01T00:00:00.000Z',
    pathNames,
    ancestorIds: [],
  }) as TagNodeWithPath;
const tree = [
  node('a0000000-0000-4000-8000-000000000001', ['Apparel']),
  node('a0000000-0000-4000-8000-000000000002', ['Apparel', 'Men']),
  node('a0000000-0000-4000-8000-000000000003', ['Apparel', 'Men', 'Shirts']),
  node('a0000000-0000-4000-8000-000000000004', ['Apparel', 'Women', 'Shirts']),
];
const [apparel, , menShirts, womenShirts] = tree as [
  TagNodeWithPath,
  TagNodeWithPath,
  TagNodeWithPath,
  TagNodeWithPath,
];

const sourcesRead = new Set<TagTreeSource>();
vi.mock('../../services/tag-tree', () => ({
  useTagSearch: (source: TagTreeSource, query: string) => {
    sourcesRead.add(source);
    const result = query ? tree.filter((one) => one.name.toLowerCase().includes(query.toLowerCase())) : [];
    return { data: { result, count: result.length }, isFetching: false };
  },
  useTagNodes: (source: TagTreeSource, ids: readonly string[]) => {
    sourcesRead.add(source);
    return { data: ids.map((id) => tree.find((one) => one.id === id) ?? null), isPending: false };
  },
}));

afterEach(() => {
  cleanup();
  sourcesRead.clear();
});

const tagField: QueryField = { key: 'tags', label: 'Tag', kind: 'tree', group: 'Item', optionSource: 'tags' };
const fields = [...testFields, tagField];

function show(initial: QueryTree, source: TagTreeSource = 'draft') {
  const onChange = vi.fn<(tree: QueryTree) => void>();
  const editors = { tags: tagValueEditor(source) };
  function Page() {
    const [value, setValue] = useState(initial);
    return (
      <QueryBuilder
        fields={fields}
        value={value}
        onChange={(next) => {
          onChange(next);
          setValue(next);
        }}
        valueEditors={editors}
      />
    );
  }
  render(
    <ChakraProvider value={system}>
      <Page />
    </ChakraProvider>,
  );
  return { lastTree: () => onChange.mock.lastCall?.[0] };
}

const row = () => screen.getByRole('group', { name: 'Condition 1' });
/** The picker's matches (the operator select has options too). */
const matches = () =>
  within(within(row()).getByRole('listbox', { name: 'Matching tags' })).findAllByRole('option');

describe('the Tag field of the query builder', () => {
  it('offers "is under" and friends, and picks tags from the tree shown with their paths', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({ combinator: 'and', children: [{ field: 'tags', op: 'under' }] });
    const operator = within(row()).getByRole('combobox', { name: 'Operator' });
    expect([...(operator as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'is under',
      'is not under',
      'is empty',
      'is not empty',
    ]);
    expect(
      within(row()).getByText('Choose at least one tag; until then this condition is left out.'),
    ).toBeVisible();

    await user.type(within(row()).getByRole('textbox', { name: 'Find a tag' }), 'shirts');
    // Two "Shirts": the paths tell them apart.
    const options = await matches();
    expect(options.map((option) => option.textContent)).toEqual([
      'ShirtsApparel › Men › Shirts',
      'ShirtsApparel › Women › Shirts',
    ]);
    await user.click(options[0] as HTMLElement);
    expect(lastTree()).toStrictEqual({
      combinator: 'and',
      children: [{ field: 'tags', op: 'under', value: [menShirts.id] }],
    });
    const chosen = within(row()).getByRole('list', { name: 'Chosen tags' });
    expect(within(chosen).getByText('Apparel › Men › Shirts')).toBeVisible();
    // The picker starts afresh for the next tag; a chosen one is offered but disabled.
    const find = within(row()).getByRole('textbox', { name: 'Find a tag' });
    expect(find).toHaveValue('');
    await user.type(find, 'shirts');
    const again = await matches();
    expect(again[0]).toBeDisabled();
    expect(again[0]).toHaveAttribute('title', 'Already chosen');
    await user.click(again[1] as HTMLElement);
    expect(lastTree()?.children[0]).toStrictEqual({
      field: 'tags',
      op: 'under',
      value: [menShirts.id, womenShirts.id],
    });

    // "is not under" keeps the tags; removing chips empties the value.
    await user.selectOptions(within(row()).getByRole('combobox', { name: 'Operator' }), 'is not under');
    expect(lastTree()?.children[0]).toStrictEqual({
      field: 'tags',
      op: 'notUnder',
      value: [menShirts.id, womenShirts.id],
    });
    await user.click(within(row()).getByRole('button', { name: 'Remove Apparel › Men › Shirts' }));
    await user.click(within(row()).getByRole('button', { name: 'Remove Apparel › Women › Shirts' }));
    expect(lastTree()?.children[0]).toStrictEqual({ field: 'tags', op: 'notUnder' });
    expect(sourcesRead).toEqual(new Set(['draft']));
  });

  it('names the tags of a query opened from a link, and says when one is gone', async () => {
    show(
      {
        combinator: 'and',
        children: [
          { field: 'tags', op: 'under', value: [apparel.id, 'a0000000-0000-4000-8000-00000000dead'] },
        ],
      },
      'latest',
    );
    const chosen = within(row()).getByRole('list', { name: 'Chosen tags' });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Apparel', UNKNOWN_TAG_LABEL]);
    // A seller's builder reads the published tree.
    expect(sourcesRead).toEqual(new Set(['latest']));
  });

  it('clears the tags when the condition moves to another field', async () => {
    const user = userEvent.setup({ delay: null });
    const { lastTree } = show({
      combinator: 'and',
      children: [{ field: 'tags', op: 'under', value: [apparel.id] }],
    });
    const input = within(row()).getByRole('combobox', { name: 'Field' });
    await user.click(input);
    await user.clear(input);
    await user.paste('Stat');
    await user.click(await screen.findByRole('option', { name: 'Status' }));
    expect(lastTree()).toStrictEqual({ combinator: 'and', children: [{ field: 'status', op: 'anyOf' }] });
  });
});
