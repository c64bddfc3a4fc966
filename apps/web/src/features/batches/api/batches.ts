import { Batch, BatchSummary } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { config } from '@/config';
import { api } from '@/lib/api-client';
import { downloadBlob, saveBlob } from '@/lib/download';
import { meQueryKey } from '@/lib/auth/api/get-me';
import { queryKeys } from '@/lib/query-keys';

export const batchKeys = {
  all: ['batches'] as const,
  list: () => ['batches', 'list'] as const,
  detail: (id: number) => ['batches', 'detail', id] as const,
};

/** Where the template downloads from: public, so a plain link works. */
export const batchTemplateUrl = `${config.apiBase}/batches/template.csv`;

/** How often the progress view asks for news while videos wait or render. */
const PROGRESS_POLL_MS = 3000;

export interface NewBatch {
  name: string;
  /** The sheet: a dropped file's text or pasted rows. */
  csv: string;
  /** Product images named in the product column. */
  products: File[];
}

/** POST /api/batches (multipart): checks the sheet and stores it as a draft; nothing is spent. */
export const createBatch = async ({ name, csv, products }: NewBatch): Promise<Batch> => {
  const form = new FormData();
  if (name.trim()) form.append('name', name.trim());
  form.append('csv', csv);
  for (const f of products) form.append('products', f, f.name);
  return Batch.parse(await api.post('/batches', form));
};

export function useCreateBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBatch,
    onSuccess: (batch) => {
      queryClient.setQueryData(batchKeys.detail(batch.id), batch);
      void queryClient.invalidateQueries({ queryKey: batchKeys.list() });
    },
  });
}

export function useBatches() {
  return useQuery({
    queryKey: batchKeys.list(),
    queryFn: async () => z.array(BatchSummary).parse(await api.get('/batches')),
  });
}

const isRunning = (b: Batch | undefined) => b?.status === 'queued' && b.progress.queued + b.progress.in_progress > 0;

/** GET /api/batches/{id}: the rows, and once queued their jobs; polled while any video waits or renders. */
export function useBatch(id: number) {
  return useQuery({
    queryKey: batchKeys.detail(id),
    queryFn: async () => Batch.parse(await api.get(`/batches/${id}`)),
    enabled: Number.isInteger(id) && id > 0,
    refetchInterval: (q) => (isRunning(q.state.data) ? PROGRESS_POLL_MS : false),
  });
}

/** POST /api/batches/{id}/confirm: queues the valid rows once per intent (Idempotency-Key); 402 when short. */
export function useConfirmBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => Batch.parse(await api.spend(`/batches/${id}/confirm`)),
    onSuccess: (batch) => {
      queryClient.setQueryData(batchKeys.detail(batch.id), batch);
      void queryClient.invalidateQueries({ queryKey: batchKeys.list() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.jobs.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.all });
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

/** GET /api/batches/{id}/download: the finished videos and manifest.csv as one zip. */
export function useDownloadBatchZip() {
  return useMutation({
    mutationFn: async (id: number) => {
      const { blob, fileName } = await downloadBlob(`${config.apiBase}/batches/${id}/download`, `batch-${id}.zip`);
      saveBlob(blob, fileName);
      return fileName;
    },
  });
}
