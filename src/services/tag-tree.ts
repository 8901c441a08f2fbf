// Reading the tag tree from anywhere in the SPA (issue 16): the Manage Tags page, and the pickers that
// choose tags for products, a move or a remap. One fetcher per read, parsed with its contract; the
// tags feature adds its own hooks for what only it does (writes, publish, history).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  type TagNodeList,
  type TagNodeWithPath,
  type TagSearchResult,
  type TagTreeSource,
  tagNodeListSchema,
  tagNodeWithPathSchema,
  tagSearchResultSchema,
} from '../../contracts/tags';
import { http } from './http';

export const TAGS_API = '/api/v1/tags';

export const tagTreeKeys = {
  all: ['tags'] as const,
  tree: (source: TagTreeSource) => [...tagTreeKeys.all, 'tree', String(source)] as const,
  children: (source: TagTreeSource, parent: string | null) =>
    [...tagTreeKeys.tree(source), 'children', parent] as const,
  node: (source: TagTreeSource, id: string) => [...tagTreeKeys.tree(source), 'node', id] as const,
  search: (source: TagTreeSource, query: string) => [...tagTreeKeys.tree(source), 'search', query] as const,
  nodes: (source: TagTreeSource, ids: readonly string[]) =>
    [...tagTreeKeys.tree(source), 'nodes', [...ids].sort().join(',')] as const,
};

const treeUrl = (source: TagTreeSource, rest: string) => `${TAGS_API}/trees/${source}/${rest}`;

export async function fetchTagChildren(
  source: TagTreeSource,
  parent: string | null,
  options: { skip?: number; limit?: number; signal?: AbortSignal } = {},
): Promise<TagNodeList> {
  const params: Record<string, unknown> = { skip: options.skip ?? 0, limit: options.limit ?? 1000 };
  if (parent) params.parent = parent;
  const response = await http.get(treeUrl(source, 'children'), {
    params,
    signal: options.signal,
    silent: true,
  });
  return tagNodeListSchema.parse(response.data);
}

export async function fetchTagNode(source: TagTreeSource, id: string, signal?: AbortSignal) {
  const response = await http.get(treeUrl(source, `nodes/${encodeURIComponent(id)}`), {
    signal,
    silent: true,
  });
  return tagNodeWithPathSchema.parse(response.data);
}

export async function searchTags(
  source: TagTreeSource,
  query: string,
  options: { limit?: number; signal?: AbortSignal } = {},
): Promise<TagSearchResult> {
  const response = await http.get(treeUrl(source, 'search'), {
    params: { query, limit: options.limit ?? 20 },
    signal: options.signal,
    silent: true,
  });
  return tagSearchResultSchema.parse(response.data);
}

/** Tags whose name or code holds the text (nothing is asked for an empty text). */
export const useTagSearch = (source: TagTreeSource, query: string, limit = 20) =>
  useQuery({
    queryKey: [...tagTreeKeys.search(source, query), limit],
    queryFn: ({ signal }) => searchTags(source, query, { limit, signal }),
    enabled: query.trim().length > 0,
    placeholderData: keepPreviousData,
  });

/** Several tags by id with their paths (a product's tags, a remap's choice). */
export const useTagNodes = (source: TagTreeSource, ids: readonly string[]) =>
  useQuery({
    queryKey: tagTreeKeys.nodes(source, ids),
    queryFn: async ({ signal }): Promise<(TagNodeWithPath | null)[]> =>
      Promise.all(ids.map((id) => fetchTagNode(source, id, signal).catch(() => null))),
    enabled: ids.length > 0,
    staleTime: 30_000,
  });
