import { describe, expect, it } from 'vitest';
import { parseTagsView, tagsHref } from './url-state';

const id = '0b6a8c8e-1d2f-4a3b-9c4d-5e6f7a8b9c0d';

describe('the Manage Tags address', () => {
  it('round-trips the tab and the chosen tag, and drops what it cannot read', () => {
    expect(parseTagsView(`?tag=${id}`)).toEqual({ tab: 'hierarchy', tagId: id });
    expect(tagsHref({ tab: 'hierarchy', tagId: id })).toBe(`/tags/manage-tags?tag=${id}`);
    expect(parseTagsView('?tab=history')).toEqual({ tab: 'history', tagId: null });
    expect(tagsHref({ tab: 'history', tagId: id })).toBe('/tags/manage-tags?tab=history');
    expect(parseTagsView('?tab=nope&tag=not-an-id')).toEqual({ tab: 'hierarchy', tagId: null });
    expect(tagsHref({ tab: 'hierarchy', tagId: null })).toBe('/tags/manage-tags');
  });
});
