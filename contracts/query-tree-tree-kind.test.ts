// The query tree's `tree` kind (issue 16: "Tag is under X"): which operators it offers and what values
// they take. The compiler and the reference evaluator are held to each other in
// server/modules/products/query-compiler.property.test.ts.
import { describe, expect, it } from 'vitest';
import {
  decodeQuery,
  encodeQuery,
  findQueryProblem,
  operatorLabels,
  operatorsByKind,
  type QueryField,
  type QueryTree,
} from './query-tree';

const tags: QueryField = { key: 'tags', label: 'Tag', kind: 'tree', optionSource: 'tags' };
const fields = new Map([[tags.key, tags]]);
const problem = (tree: QueryTree) => findQueryProblem(tree, fields);
const one = (condition: QueryTree['children'][number]): QueryTree => ({
  combinator: 'and',
  children: [condition],
});
const id = '0b7c0a64-8a5e-4d3f-9a4e-1c2d3e4f5a6b';

describe('a tree field', () => {
  it('offers "is under", "is not under" and emptiness', () => {
    expect(operatorsByKind.tree.map((op) => operatorLabels[op])).toEqual([
      'is under',
      'is not under',
      'is empty',
      'is not empty',
    ]);
  });

  it('takes a list of node ids, and no value for emptiness', () => {
    expect(problem(one({ field: 'tags', op: 'under', value: [id] }))).toBeNull();
    expect(
      problem(one({ field: 'tags', op: 'notUnder', value: [id, 'any-id-the-tree-may-lack'] })),
    ).toBeNull();
    expect(problem(one({ field: 'tags', op: 'isEmpty' }))).toBeNull();
    expect(problem(one({ field: 'tags', op: 'under', value: id }))).toBe(
      '"Tag is under" needs a list of tags.',
    );
    expect(problem(one({ field: 'tags', op: 'under', value: [3] }))).toBe(
      '"Tag is under" needs a list of tags.',
    );
    expect(problem(one({ field: 'tags', op: 'under' }))).toBe('"Tag is under" needs a value.');
    expect(problem(one({ field: 'tags', op: 'isEmpty', value: [id] }))).toBe(
      '"Tag is empty" takes no value.',
    );
    expect(problem(one({ field: 'tags', op: 'anyOf', value: [id] }))).toBe(
      'Tag cannot be filtered with "is any of".',
    );
  });

  it('travels in a URL', () => {
    const tree = one({ field: 'tags', op: 'under', value: [id] });
    expect(decodeQuery(encodeQuery(tree))).toEqual(tree);
  });
});
