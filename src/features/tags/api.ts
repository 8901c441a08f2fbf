// Every call of the Manage Tags page that only it makes: the draft's writes, the level calculation,
// publish and rollback, versions, diffs, the overview, exports and histories. Reads of the tree itself
// are in src/services/tag-tree.ts (the pickers share them). Every answer is parsed with its contract.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaskAccepted } from '../../../contracts/notifications';
import {
  type CreateTagBody,
  type DeleteTagBody,
  deleteTagImpactSchema,
  deleteTagResultSchema,
  type MoveTagBody,
  type PublishBody,
  publishPreviewSchema,
  type RollbackBody,
  type TagExportBody,
  type TagTreeSource,
  tagDiffSchema,
  tagNodeWithPathSchema,
  tagOverviewSchema,
  tagTreeStateSchema,
  tagVersionListSchema,
  tagVersionSchema,
  type UpdateTagBody,
} from '../../../contracts/tags';
import { useHistory } from '../../services/history-query';
import { http } from '../../services/http';
import { TAGS_API, tagTreeKeys } from '../../services/tag-tree';

export const tagKeys = {
  ...tagTreeKeys,
  state: () => [...tagTreeKeys.all, 'state'] as const,
  preview: () => [...tagTreeKeys.all, 'publish-preview'] as const,
  versions: () => [...tagTreeKeys.all, 'versions'] as const,
  versionList: (skip: number, limit: number) => [...tagKeys.versions(), 'list', skip, limit] as const,
  diff: (from: TagTreeSource | null, to: TagTreeSource | null) =>
    [...tagTreeKeys.all, 'diff', String(from), String(to)] as const,
  overview: () => [...tagTreeKeys.all, 'overview'] as const,
  nodeHistory: (id: string) => [...tagTreeKeys.all, 'history', id] as const,
  treeHistory: () => [...tagTreeKeys.all, 'history', 'tree'] as const,
  impact: (id: string) => [...tagTreeKeys.all, 'impact', id] as const,
};

export const useTreeState = () =>
  useQuery({
    queryKey: tagKeys.state(),
    queryFn: async ({ signal }) =>
      tagTreeStateSchema.parse((await http.get(`${TAGS_API}/state`, { signal, silent: true })).data),
  });

export const usePublishPreview = (enabled: boolean) =>
  useQuery({
    queryKey: tagKeys.preview(),
    queryFn: async ({ signal }) =>
      publishPreviewSchema.parse(
        (await http.get(`${TAGS_API}/publishPreview`, { signal, silent: true })).data,
      ),
    enabled,
    // Always read afresh when the dialog opens: the draft may have changed.
    staleTime: 0,
    gcTime: 0,
  });

export const useVersions = (skip: number, limit: number) =>
  useQuery({
    queryKey: tagKeys.versionList(skip, limit),
    queryFn: async ({ signal }) =>
      tagVersionListSchema.parse(
        (await http.get(`${TAGS_API}/versions`, { params: { skip, limit }, signal, silent: true })).data,
      ),
    placeholderData: keepPreviousData,
  });

export const useTagDiff = (from: TagTreeSource | null, to: TagTreeSource | null) =>
  useQuery({
    queryKey: tagKeys.diff(from, to),
    queryFn: async ({ signal }) =>
      tagDiffSchema.parse(
        (await http.get(`${TAGS_API}/diff`, { params: { from, to }, signal, silent: true })).data,
      ),
    enabled: from !== null && to !== null,
  });

export const useTagOverview = (enabled: boolean) =>
  useQuery({
    queryKey: tagKeys.overview(),
    queryFn: async ({ signal }) =>
      tagOverviewSchema.parse((await http.get(`${TAGS_API}/overview`, { signal, silent: true })).data),
    enabled,
  });

export const useDeleteImpact = (id: string | null) =>
  useQuery({
    queryKey: tagKeys.impact(id ?? ''),
    queryFn: async ({ signal }) =>
      deleteTagImpactSchema.parse(
        (
          await http.get(`${TAGS_API}/draft/nodes/${encodeURIComponent(id ?? '')}/deleteImpact`, {
            signal,
            silent: true,
          })
        ).data,
      ),
    enabled: Boolean(id),
    staleTime: 0,
    gcTime: 0,
  });

export const useNodeHistory = (id: string) =>
  useHistory(tagKeys.nodeHistory(id), `${TAGS_API}/draft/nodes/${encodeURIComponent(id)}/history`);
export const useTreeHistory = () => useHistory(tagKeys.treeHistory(), `${TAGS_API}/history`);

/** After a draft write: the draft's reads, its state and what depends on it go stale. */
function useDraftChanged() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: tagTreeKeys.tree('draft') }),
      client.invalidateQueries({ queryKey: tagKeys.state() }),
      client.invalidateQueries({ queryKey: tagKeys.overview() }),
      // The Publish button counts the changes waiting.
      client.invalidateQueries({ queryKey: tagKeys.preview() }),
      client.invalidateQueries({ queryKey: [...tagTreeKeys.all, 'history'] }),
    ]);
}

// Writes: the page shows a refusal where the user acted (the dialog, the tree), so none is toasted.

export function useCreateTag() {
  const changed = useDraftChanged();
  return useMutation({
    mutationFn: async (body: CreateTagBody) =>
      tagNodeWithPathSchema.parse((await http.post(`${TAGS_API}/draft/nodes`, body, { silent: true })).data),
    onSuccess: changed,
  });
}

export function useUpdateTag() {
  const changed = useDraftChanged();
  return useMutation({
    mutationFn: async ({ id, ...body }: UpdateTagBody & { id: string }) =>
      tagNodeWithPathSchema.parse(
        (await http.patch(`${TAGS_API}/draft/nodes/${encodeURIComponent(id)}`, body, { silent: true })).data,
      ),
    onSuccess: changed,
  });
}

export function useMoveTag() {
  const changed = useDraftChanged();
  return useMutation({
    mutationFn: async ({ id, ...body }: MoveTagBody & { id: string }) =>
      tagNodeWithPathSchema.parse(
        (await http.post(`${TAGS_API}/draft/nodes/${encodeURIComponent(id)}/move`, body, { silent: true }))
          .data,
      ),
    onSuccess: changed,
  });
}

export function useDeleteTag() {
  const changed = useDraftChanged();
  return useMutation({
    mutationFn: async ({ id, ...body }: DeleteTagBody & { id: string }) =>
      deleteTagResultSchema.parse(
        (await http.post(`${TAGS_API}/draft/nodes/${encodeURIComponent(id)}/delete`, body, { silent: true }))
          .data,
      ),
    onSuccess: changed,
  });
}

/** Starts the level calculation; its end raises the task toast (the http layer follows the task). */
export const useCalculateLevels = () =>
  useMutation({
    mutationFn: async () => (await http.post<TaskAccepted>(`${TAGS_API}/calculateLevels`)).data,
  });

export const useExportTags = () =>
  useMutation({
    mutationFn: async (body: TagExportBody) =>
      (await http.post<TaskAccepted>(`${TAGS_API}/export`, body)).data,
  });

/** After a publish or a rollback everything about the tree is stale: versions, the draft, the state. */
function useTreeReplaced() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: tagTreeKeys.all });
}

export function usePublish() {
  const replaced = useTreeReplaced();
  return useMutation({
    mutationFn: async (body: PublishBody) =>
      tagVersionSchema.parse((await http.post(`${TAGS_API}/publish`, body, { silent: true })).data),
    onSuccess: replaced,
  });
}

export function useRollback() {
  const replaced = useTreeReplaced();
  return useMutation({
    mutationFn: async (body: RollbackBody) =>
      tagTreeStateSchema.parse((await http.post(`${TAGS_API}/rollback`, body, { silent: true })).data),
    onSuccess: replaced,
  });
}
