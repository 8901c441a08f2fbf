import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys';

describe('queryKeys', () => {
  const keys = queryKeys<{ skip: number }>('customers');

  it('builds every key from the ones above it', () => {
    expect(keys.all).toEqual(['customers']);
    expect(keys.lists()).toEqual(['customers', 'list']);
    expect(keys.list({ skip: 20 })).toEqual(['customers', 'list', { skip: 20 }]);
    expect(keys.details()).toEqual(['customers', 'detail']);
    expect(keys.detail('c1')).toEqual(['customers', 'detail', 'c1']);
  });

  it('takes a root of several segments and numeric ids', () => {
    const templates = queryKeys<void, number>('bulk-mails', 'templates');
    expect(templates.list()).toEqual(['bulk-mails', 'templates', 'list', undefined]);
    expect(templates.detail(7)).toEqual(['bulk-mails', 'templates', 'detail', 7]);
  });

  it('invalidates by prefix: lists() reaches every list and no detail', async () => {
    const client = new QueryClient();
    client.setQueryData(keys.list({ skip: 0 }), 'page 1');
    client.setQueryData(keys.list({ skip: 20 }), 'page 2');
    client.setQueryData(keys.detail('c1'), 'c1');
    await client.invalidateQueries({ queryKey: keys.lists() });
    const stale = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect([stale(keys.list({ skip: 0 })), stale(keys.list({ skip: 20 })), stale(keys.detail('c1'))]).toEqual(
      [true, true, false],
    );
    await client.invalidateQueries({ queryKey: keys.all });
    expect(stale(keys.detail('c1'))).toBe(true);
  });
});
