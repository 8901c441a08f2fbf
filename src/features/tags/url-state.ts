// The Manage Tags page's view in the address: the tab and the tag chosen (`?tab=history`,
// `?tag=<id>`), so a reload or a shared link opens the same thing.

import { isUuid } from '../../../contracts/domain/ids';
import { TAGS_ROUTE } from '../../../contracts/tags';

export const tagTabs = ['hierarchy', 'overview', 'history'] as const;
export type TagTab = (typeof tagTabs)[number];

export interface TagsView {
  tab: TagTab;
  tagId: string | null;
}

export function parseTagsView(search: string): TagsView {
  const params = new URLSearchParams(search);
  const tab = params.get('tab');
  const tag = params.get('tag');
  return {
    tab: tagTabs.includes(tab as TagTab) ? (tab as TagTab) : 'hierarchy',
    tagId: tag && isUuid(tag) ? tag.toLowerCase() : null,
  };
}

export function tagsHref(view: TagsView): string {
  const params = new URLSearchParams();
  if (view.tab !== 'hierarchy') params.set('tab', view.tab);
  if (view.tagId && view.tab === 'hierarchy') params.set('tag', view.tagId);
  const text = params.toString();
  return `${TAGS_ROUTE}${text ? `?${text}` : ''}`;
}
