import { CutoutCheckJobResponse, isTerminalJobStatus, Job, Project, TIMINGS } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** POST /api/merge/cutout-check/{projectId} → {job_id}: the free job that makes and checks the cut-out. */
export const checkProductCutout = async (projectId: number): Promise<number> =>
  CutoutCheckJobResponse.parse(await api.post(`/merge/cutout-check/${projectId}`)).job_id;

/** POST /api/merge/accept-cutout/{projectId} → the project: use a cut-out that needs review as it is. */
export const acceptProductCutout = async (projectId: number): Promise<Project> =>
  Project.parse(await api.post(`/merge/accept-cutout/${projectId}`));

export function useAcceptProductCutout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptProductCutout,
    onSuccess: (project) => queryClient.setQueryData(queryKeys.projects.detail(project.id), project),
  });
}

/**
 * The project's product cut-out, checked before anything is paid for (decision 214): a project with a product
 * image and no check yet starts the free check once, polls its job, then reloads the project, whose
 * `cutout_check` then holds the verdict. `checking` is true until then; `failed` when the check job failed.
 */
export function useProductCutoutCheck(project: Project): { checking: boolean; failed: boolean } {
  const queryClient = useQueryClient();
  const [jobId, setJobId] = useState<number | null>(null);
  const started = useRef<string | null>(null);
  const needed = Boolean(project.file_path) && project.cutout_check === null;
  const start = useMutation({ mutationFn: checkProductCutout, onSuccess: setJobId });
  useEffect(() => {
    if (!needed || started.current === project.file_path) return;
    started.current = project.file_path;
    start.mutate(project.id);
  }, [needed, project.id, project.file_path]); // eslint-disable-line react-hooks/exhaustive-deps
  const job = useQuery({
    queryKey: queryKeys.jobs.detail(jobId ?? 0),
    queryFn: async ({ signal }) => Job.parse(await api.get(`/jobs/${jobId}`, { signal })),
    enabled: jobId !== null,
    staleTime: 0,
    refetchInterval: (q) =>
      q.state.data && isTerminalJobStatus(q.state.data.status) ? false : TIMINGS.hookPackJobPollMs,
  });
  const done = job.data ? isTerminalJobStatus(job.data.status) : false;
  useEffect(() => {
    if (done) void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(project.id) });
  }, [done, project.id, queryClient]);
  const failed = start.isError || job.isError || job.data?.status === 'failed';
  return { checking: needed && !failed, failed };
}
