import { describe, expect, it } from 'vitest';
import {
  contactsViewToSearch,
  defaultContactsView,
  listQueryOf,
  parseContactsView,
  toggleSort,
} from './url-state';

describe('contacts url state', () => {
  it('round-trips a view and leaves defaults out of the URL', () => {
    const view = {
      ...defaultContactsView,
      query: {
        combinator: 'and' as const,
        children: [{ field: 'country', op: 'anyOf' as const, value: ['IN'] }],
      },
      search: 'ada',
      sort: 'email' as const,
      order: 'asc' as const,
      page: 3,
      size: 50 as const,
      contact: '0b6f8c1e-8a8e-4d3b-9a0e-2f1f5b6f7a10',
    };
    expect(parseContactsView(contactsViewToSearch(view))).toEqual(view);
    expect(contactsViewToSearch(defaultContactsView)).toBe('');
    expect(listQueryOf(view)).toMatchObject({ skip: 100, limit: 50, search: 'ada', sort: 'email' });
  });

  it('falls back to the default for anything unknown or invalid', () => {
    expect(parseContactsView('?q=nonsense&sort=age&order=up&page=-2&size=7&contact=1')).toEqual(
      defaultContactsView,
    );
  });

  it('toggles the order of the current column; names and e-mails start ascending', () => {
    expect(toggleSort(defaultContactsView, 'createdAt')).toEqual({ sort: 'createdAt', order: 'asc' });
    expect(toggleSort(defaultContactsView, 'name')).toEqual({ sort: 'name', order: 'asc' });
    expect(toggleSort(defaultContactsView, 'lastContactedAt')).toEqual({
      sort: 'lastContactedAt',
      order: 'desc',
    });
  });
});
