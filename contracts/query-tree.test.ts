import { describe, expect, it } from 'vitest';
import {
  decodeQuery,
  encodeQuery,
  findQueryProblem,
  measureQuery,
  normalizeText,
  parseIsoDate,
  QUERY_LIMITS,
  type QueryField,
  type QueryNode,
  type QueryTree,
  queryTreeSchema,
} from './query-tree';

const fields = new Map<string, QueryField>(
  (
    [
      { key: 'title', label: 'Title', kind: 'text' },
      { key: 'price', label: 'Price', kind: 'number' },
      { key: 'released', label: 'Released', kind: 'date' },
      { key: 'colour', label: 'Colour', kind: 'enum', options: [{ value: 1, label: 'Red' }] },
      { key: 'seller', label: 'Seller', kind: 'enum', optionSource: 'sellers' },
      { key: 'waterproof', label: 'Waterproof', kind: 'boolean' },
      { key: 'images', label: 'Images', kind: 'media' },
    ] satisfies QueryField[]
  ).map((field) => [field.key, field]),
);

const tree = (...children: QueryNode[]): QueryTree => ({ combinator: 'and', children });
const nested = (depth: number): QueryTree =>
  depth <= 1 ? tree({ field: 'title', op: 'isEmpty' }) : tree(nested(depth - 1));

describe('the query tree', () => {
  it('accepts nesting up to the depth limit and refuses one level more, saying why', () => {
    expect(measureQuery(nested(QUERY_LIMITS.maxDepth)).depth).toBe(QUERY_LIMITS.maxDepth);
    expect(queryTreeSchema.safeParse(nested(QUERY_LIMITS.maxDepth)).success).toBe(true);
    const deeper = queryTreeSchema.safeParse(nested(QUERY_LIMITS.maxDepth + 1));
    expect(deeper.success).toBe(false);
    expect(deeper.error?.issues[0]?.message).toBe(
      'A query can nest groups at most 5 levels deep (this one has 6).',
    );
  });

  it('refuses more than 50 conditions, spread over groups', () => {
    const condition = { field: 'title', op: 'isEmpty' } as const;
    const many = tree(
      ...Array.from({ length: 3 }, () => tree(...Array.from({ length: 17 }, () => condition))),
    );
    const parsed = queryTreeSchema.safeParse(many);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      'A query can hold at most 50 conditions (this one has 51).',
    );
  });

  it('refuses unknown operators and fields that are not a group or a condition', () => {
    expect(queryTreeSchema.safeParse(tree({ field: 'title', op: 'like' } as never)).success).toBe(false);
    expect(queryTreeSchema.safeParse({ combinator: 'xor', children: [] }).success).toBe(false);
    expect(queryTreeSchema.safeParse({ combinator: 'and', children: [{ sql: '1=1' }] }).success).toBe(false);
  });

  it.each([
    [{ field: 'nope', op: 'isEmpty' }, 'There is no field "nope" to filter on.'],
    [{ field: 'title', op: 'gt', value: 1 }, 'Title cannot be filtered with ">".'],
    [{ field: 'title', op: 'contains' }, '"Title contains" needs a value.'],
    [{ field: 'title', op: 'contains', value: '   ' }, '"Title contains" needs some text.'],
    [{ field: 'title', op: 'isEmpty', value: 'x' }, '"Title is empty" takes no value.'],
    [{ field: 'price', op: 'gte', value: '5' }, '"Price ≥" needs a number.'],
    [
      { field: 'price', op: 'between', value: [9, 1] },
      '"Price between" needs two numbers, the first not above the second.',
    ],
    [
      { field: 'released', op: 'before', value: '2026-02-30' },
      '"Released before" needs a date (ISO 8601, e.g. 2026-01-31).',
    ],
    [
      { field: 'released', op: 'between', value: ['2026-02-01', '2026-01-01'] },
      '"Released between" needs two dates, the first not after the second.',
    ],
    [{ field: 'colour', op: 'anyOf', value: [1, 7] }, 'Colour has no option "7".'],
    [{ field: 'colour', op: 'anyOf', value: 1 }, '"Colour is any of" needs a list of choices.'],
    [{ field: 'images', op: 'isTrue' }, 'Images cannot be filtered with "is true".'],
  ] as const)('names the problem of %j', (condition, message) => {
    expect(findQueryProblem(tree(tree(condition as never)), fields)).toBe(message);
  });

  it('accepts every kind with its own operators', () => {
    expect(
      findQueryProblem(
        tree(
          { field: 'title', op: 'startsWith', value: 'Tea' },
          {
            combinator: 'or',
            children: [
              { field: 'price', op: 'between', value: [1, 1] },
              { field: 'waterproof', op: 'isTrue' },
            ],
          },
          { field: 'released', op: 'after', value: '2026-01-31T10:00:00+05:30' },
          { field: 'colour', op: 'noneOf', value: [1] },
          // Searched options are checked where they are stored, not against a list.
          { field: 'seller', op: 'anyOf', value: ['any-id'] },
          { field: 'images', op: 'isNotEmpty' },
        ),
        fields,
      ),
    ).toBeNull();
  });

  it('travels in a URL and comes back the same; a broken or oversized one is ignored', () => {
    const query = tree({ field: 'price', op: 'gte', value: 10 }, { combinator: 'or', children: [] });
    const text = encodeQuery(query);
    expect(decodeQuery(new URLSearchParams({ q: text ?? '' }).get('q'))).toEqual(query);
    expect(encodeQuery(tree())).toBeNull();
    expect(decodeQuery('{"combinator":')).toBeNull();
    expect(decodeQuery(JSON.stringify(nested(6)))).toBeNull();
    expect(decodeQuery(null)).toBeNull();
  });
});

describe('text and dates compare the same everywhere', () => {
  it('folds accents, case and spaces', () => {
    expect(normalizeText('  Crème   BRÛLÉE ')).toBe('creme brulee');
    expect(normalizeText('Ｆｕｌｌ')).toBe('full');
  });

  it('reads ISO 8601 dates and date-times, UTC unless a zone is given, and only real days', () => {
    expect(parseIsoDate('2026-01-31')).toBe(Date.UTC(2026, 0, 31));
    expect(parseIsoDate('2026-01-31T10:00')).toBe(Date.UTC(2026, 0, 31, 10));
    expect(parseIsoDate('2026-01-31T10:00:00+05:30')).toBe(Date.UTC(2026, 0, 31, 4, 30));
    expect(parseIsoDate('2026-02-29')).toBeNull();
    expect(parseIsoDate('2028-02-29')).toBe(Date.UTC(2028, 1, 29));
    expect(parseIsoDate('31/01/2026')).toBeNull();
    expect(parseIsoDate('2026-01-31T25:00:00Z')).toBeNull();
  });
});
