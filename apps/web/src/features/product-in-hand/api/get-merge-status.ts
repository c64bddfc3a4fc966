import { AvatarWithStatus } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const AvatarStatusList = z.array(AvatarWithStatus);
export const MERGE_POLL_MS = 1000;

/** GET /api/merge/avatars-with-status/{projectId}. */
export const getMergeStatus = async (projectId: number, signal?: AbortSignal) => {
  const data = await api.get(`/merge/avatars-with-status/${projectId}`, { signal });
  return AvatarStatusList.parse(data);
};

/** Merge status of every actor; polled every second while `shouldPoll(latest data)` says so. */
export function useMergeStatus(projectId: number, shouldPoll: (data: AvatarWithStatus[]) => boolean) {
  const query = useQuery({
    queryKey: queryKeys.merge.status(projectId),
    queryFn: ({ signal }) => getMergeStatus(projectId, signal),
    enabled: projectId > 0,
    staleTime: 0,
    refetchInterval: (q) => (shouldPoll(q.state.data ?? []) ? MERGE_POLL_MS : false),
  });
  const { error, errorUpdatedAt } = query;
  useEffect(() => {
    if (error) console.error('Polling merge status failed', error);
  }, [error, errorUpdatedAt]);
  return query;
}
