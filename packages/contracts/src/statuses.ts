import { z } from 'zod';

/** Job status (docs/product.md#states). Any other value is shown as Queued / Waiting. */
export const JOB_STATUSES = ['queued', 'in_progress', 'completed', 'failed'] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;

export const JOB_STATUS_LABELS: Record<JobStatus, string> = {
  queued: 'Queued',
  in_progress: 'Processing',
  completed: 'Done',
  failed: 'Failed',
};
export const jobStatusLabel = (status: string): string =>
  (JOB_STATUS_LABELS as Record<string, string>)[status] ?? 'Waiting';
export const isTerminalJobStatus = (status: string): boolean => status === 'completed' || status === 'failed';

/** Hook pack status with badge label and colour (docs/product.md#states). */
export const HOOK_PACK_STATUSES = [
  'created',
  'product_uploaded',
  'character_types_defined',
  'message_created',
  'characters_selected',
  'previews_ready',
  'videos_ready',
  'generating_characters',
  'generating_previews',
  'generating_videos',
  'completed',
] as const;
export const HookPackStatus = z.enum(HOOK_PACK_STATUSES);
export type HookPackStatus = z.infer<typeof HookPackStatus>;
export type BadgeColour = 'gray' | 'blue' | 'green' | 'yellow';

export const HOOK_PACK_BADGES: Record<HookPackStatus, { label: string; colour: BadgeColour }> = {
  created: { label: 'Just Started', colour: 'gray' },
  product_uploaded: { label: 'Product Uploaded', colour: 'blue' },
  character_types_defined: { label: 'Characters Defined', colour: 'blue' },
  message_created: { label: 'Message Created', colour: 'blue' },
  characters_selected: { label: 'Characters Selected', colour: 'blue' },
  previews_ready: { label: 'Previews Ready', colour: 'blue' },
  videos_ready: { label: 'Videos Ready', colour: 'green' },
  generating_characters: { label: 'Generating Characters', colour: 'yellow' },
  generating_previews: { label: 'Generating Previews', colour: 'yellow' },
  generating_videos: { label: 'Generating Videos', colour: 'yellow' },
  completed: { label: 'Completed', colour: 'green' },
};

/** Unknown statuses: underscores to spaces, each word capitalised, gray. */
export const hookPackBadge = (status: string): { label: string; colour: BadgeColour } =>
  (HOOK_PACK_BADGES as Record<string, { label: string; colour: BadgeColour }>)[status] ?? {
    label: status
      .split('_')
      .filter(Boolean)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' '),
    colour: 'gray',
  };

/**
 * A preview is pending until the user approves (accepted) or unapproves (rejected) it, and pending again when its
 * picture is made anew; never null (decision 198).
 */
export const PREVIEW_STATUSES = ['pending', 'accepted', 'rejected'] as const;
export const PreviewStatus = z.enum(PREVIEW_STATUSES);
export type PreviewStatus = z.infer<typeof PreviewStatus>;
/** What a user may set: pending is the server's, for a picture nobody has judged yet. */
export const PreviewChoice = PreviewStatus.extract(['accepted', 'rejected']);
