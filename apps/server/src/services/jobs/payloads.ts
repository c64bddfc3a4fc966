import { VideoQuality } from '@hookreel/contracts';
import { z } from 'zod';
import type { JobRow } from '../../db/repositories/jobs.ts';
import { readPayload } from '../../jobs/definition.ts';

/**
 * The fields every video job's payload may carry (render-project-video, render-hook-video), read leniently: rows
 * from before a field existed read as a Draft that upgrades nothing.
 */
const VideoPayloadFields = z.object({
  quality: VideoQuality.catch('draft'),
  upgradeOf: z.number().nullable().catch(null),
});

/** The quality a video job was queued in (jobs from before the choice existed were drafts). */
export function renderQualityOf(row: Pick<JobRow, 'payload'>): VideoQuality {
  return readPayload(VideoPayloadFields, row)?.quality ?? 'draft';
}

/** The draft job a "Make realistic" video (of a hook pack or a project) upgrades, or null. */
export function upgradeOf(row: Pick<JobRow, 'payload'>): number | null {
  return readPayload(VideoPayloadFields, row)?.upgradeOf ?? null;
}
