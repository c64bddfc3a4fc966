import { z } from 'zod';
import { JobStatus } from './statuses.ts';
import { QualityLevel } from './video.ts';

export const Job = z.object({
  id: z.number().int(),
  project_id: z.number().int().nullable(),
  project_name: z.string(),
  kind: z.string(),
  status: JobStatus,
  progress: z.number().min(0).max(100),
  video_url: z.string().nullable(),
  poster_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  logs: z.array(z.string()),
  hook_pack_id: z.number().int().nullable(),
  variant_index: z.number().int().nullable(),
  error: z.string().nullable(),
  /** Worst line of the video's quality report; null for jobs without a video or rendered before reports. */
  quality: QualityLevel.nullable(),
  /** The full quality report (JSON, QualityReport) and the 6-frame contact sheet (JPEG). */
  report_url: z.string().nullable(),
  contact_sheet_url: z.string().nullable(),
});
export type Job = z.infer<typeof Job>;

export const QueueJobResponse = z.object({ id: z.number().int() });
export const QueueHookPackVideosResponse = z.object({ hook_pack_id: z.number().int(), total_jobs: z.number().int() });
export const QueueProductInHandResponse = z.object({ total_jobs: z.number().int() });

/** Server-sent event payload on GET /jobs/events. */
export const JobEvent = z.object({ type: z.literal('job'), job: Job });
export type JobEvent = z.infer<typeof JobEvent>;
