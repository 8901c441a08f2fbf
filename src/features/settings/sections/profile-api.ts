// Settings → Profile's calls: the signed-in user's record (contracts/users.ts). Keyed under ['settings']
// so the broker's SETTINGS_CHANGED for this user (another tab saved) refetches it with the rest.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordBody, UpdateUserBody, UserRecord } from '../../../../contracts/users';
import { http } from '../../../services/http';
import { sessionKeys } from '../../../services/session-queries';
import { uploadWithProgress } from '../../../services/upload-with-progress';

const API = '/api/v1/users';
export const profileKey = (userId: string) => ['settings', 'profile', userId] as const;

export const useUserRecord = (userId: string | undefined) =>
  useQuery({
    queryKey: profileKey(userId ?? ''),
    queryFn: async () => (await http.get<UserRecord>(`${API}/${userId}`)).data,
    enabled: !!userId,
  });

/** After a change: the record, and the current user (header name and avatar, request defaults). */
function useStoreRecord() {
  const client = useQueryClient();
  return async (record: UserRecord) => {
    client.setQueryData(profileKey(record.id), record);
    await client.invalidateQueries({ queryKey: sessionKeys.currentUser() });
  };
}

export function useSaveProfile(userId: string) {
  const store = useStoreRecord();
  return useMutation({
    mutationFn: async (body: UpdateUserBody) =>
      (await http.put<UserRecord>(`${API}/${userId}`, body, { silent: true })).data,
    onSuccess: store,
  });
}

export function useUploadAvatar() {
  const store = useStoreRecord();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) =>
      uploadWithProgress<UserRecord>(
        `${API}/uploadUserImage`,
        file,
        {},
        { silent: true, onProgress: (loaded, total) => onProgress(loaded / Math.max(total, 1)) },
      ),
    onSuccess: store,
  });
}

export const useChangePassword = (userId: string) =>
  useMutation({
    mutationFn: async (body: ChangePasswordBody) =>
      (await http.post<{ message: string }>(`${API}/${userId}/password`, body, { silent: true })).data,
  });
