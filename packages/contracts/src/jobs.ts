import { z } from 'zod';
import { isTerminalJobStatus, JobStatus } from './statuses.ts';
import { Aspect, QualityLevel, VideoQuality } from './video.ts';

/**
 * What the providers billed for a job, in their units (summed over attempts; a failed attempt's calls count too).
 * Null when every stage ran locally. Money is not stored: it is counted when read, at dated prices (ProviderPrices).
 */
export const JobCost = z.object({
  /** Images generated or edited (characters, product in hand). */
  images: z.number().int().min(0),
  /** Characters of text spoken by a remote voice. */
  characters: z.number().int().min(0),
  /** Seconds of talking-actor video generated. */
  seconds: z.number().min(0),
  /** Billable provider calls. */
  calls: z.number().int().min(0),
});
export type JobCost = z.infer<typeof JobCost>;

/**
 * The USD prices a job's provider units are counted at (decision 177): the providers' public list prices as of a
 * stated date, or the operator's own (PROVIDER_USD_PER_* settings). Calls (text and vision models, billed by tokens)
 * are not priced.
 */
export const ProviderPrices = z.object({
  /** When the list prices were read (e.g. '2026-11'), or the operator's PROVIDER_PRICES_AS_OF. */
  as_of: z.string(),
  source: z.enum(['list', 'operator']),
  usd_per_image: z.number().min(0),
  usd_per_1k_characters: z.number().min(0),
  usd_per_second: z.number().min(0),
});
export type ProviderPrices = z.infer<typeof ProviderPrices>;

/** A job's provider units in money: the USD total at `prices`. */
export const ProviderCostUsd = z.object({ usd: z.number().min(0), prices: ProviderPrices });
export type ProviderCostUsd = z.infer<typeof ProviderCostUsd>;

/**
 * GET /api/admin/provider-usage: what the providers were asked for over a period, per plan of the users who asked
 * (their current subscription, 'none' without one), beside the credits those jobs captured, so an operator can
 * price the units at their provider's rates and see the margin (docs/providers.md).
 */
export const ProviderUsageByPlan = z.object({
  since: z.string(),
  plans: z.array(
    JobCost.extend({
      plan: z.enum(['starter', 'growth', 'agency', 'none']),
      /** Jobs that called a provider at least once, finished or not. */
      jobs: z.number().int().min(0),
      /** Of those, the jobs that failed: their credits were released, but the provider calls were billed. */
      failed_jobs: z.number().int().min(0),
      /** Credits captured for those jobs (a failed job's are released: 0). */
      credits_charged: z.number().min(0),
      /** The units above in US dollars at `prices`. */
      usd: z.number().min(0),
    }),
  ),
  prices: ProviderPrices,
});
export type ProviderUsageByPlan = z.infer<typeof ProviderUsageByPlan>;
export const ProviderUsageQuery = z.object({ days: z.coerce.number().int().min(1).max(366).default(30) });

/** Which generation stage a provider call served. */
export type UsageStage = 'voice' | 'images' | 'placement' | 'avatar' | 'lipsync' | 'vision' | 'hooks';

/**
 * One billable provider call, in the units providers bill by (the engine's adapters return these; the job adds
 * them into its JobCost and logs one line each).
 */
export interface ProviderUsage {
  /** e.g. "elevenlabs", "openai", "gemini", "fal". */
  provider: string;
  stage: UsageStage;
  /** Model that did the work. */
  model: string;
  images?: number;
  characters?: number;
  seconds?: number;
  /** The provider's id for the request, when it gives one (support tickets). */
  requestId?: string;
}

/** One frame shape of a finished video: its file, download, poster and quality report. */
export const JobAspectVideo = z.object({
  aspect: Aspect,
  width: z.number().int(),
  height: z.number().int(),
  video_url: z.string(),
  poster_url: z.string().nullable(),
  /** The video with an attachment name: the job's download name, with the shape's tag for 4:5 and 1:1. */
  download_url: z.string(),
  quality: QualityLevel.nullable(),
  report_url: z.string().nullable(),
  contact_sheet_url: z.string().nullable(),
});
export type JobAspectVideo = z.infer<typeof JobAspectVideo>;

/**
 * The latest "Make realistic" of a draft video (of a hook pack or a project) while it is waiting or running, or
 * after it failed (its credits released, the button offered again): the draft's card shows it until it is done.
 */
export const RealisticUpgrade = z.object({
  job_id: z.number().int(),
  status: JobStatus,
  progress: z.number().min(0).max(100),
  error: z.string().nullable(),
});
export type RealisticUpgrade = z.infer<typeof RealisticUpgrade>;

/** The job's "Make realistic" is queued or running (screens keep polling until it is done or failed). */
export const realisticUpgradeUnderway = (job: { realistic_upgrade: RealisticUpgrade | null }): boolean =>
  job.realistic_upgrade !== null && !isTerminalJobStatus(job.realistic_upgrade.status);

export const Job = z.object({
  id: z.number().int(),
  project_id: z.number().int().nullable(),
  project_name: z.string(),
  /** The project this video was made from has been deleted since; the job and its video remain. */
  project_deleted: z.boolean().default(false),
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
  /** Who is in the video ('Character 2' in a pack, the actor's name in a project). */
  actor_name: z.string().nullable().default(null),
  /** Which video of a pack ('Video #3'); null for a project video. */
  variant_label: z.string().nullable().default(null),
  /** The hook line a pack video opens with. */
  hook_text: z.string().nullable().default(null),
  /** A pack video's cell, 'H2-A1-C3' (hook, actor, call to action), for joining ad results back. */
  variant_id: z.string().nullable().default(null),
  /** The video with an attachment name `<pack-or-project>-<variant>-<actor>.mp4` (under the API base). */
  download_url: z.string().nullable().default(null),
  /** Seconds until the video is ready, from measured render times and the queue ahead; null before any measurement. */
  eta_seconds: z.number().nullable().default(null),
  cost: JobCost.nullable(),
  /** `cost` in US dollars at the server's provider prices; null with no cost. */
  cost_usd: ProviderCostUsd.nullable().default(null),
  /** Whether the video was made by the local engine (draft) or through the providers (realistic). */
  render_quality: VideoQuality.default('draft'),
  /**
   * Credits "Make realistic" would charge now (the Realistic price minus the Draft price already paid); null when
   * it is not offered: not a finished draft project video, or its project is gone.
   */
  realistic_upgrade_cost: z.number().nullable().default(null),
  /** A draft video's "Make realistic" in flight or failed; null for everything else (see RealisticUpgrade). */
  realistic_upgrade: RealisticUpgrade.nullable().default(null),
  /**
   * Every frame shape of the finished video, 9:16 (the master, the same file as video_url) first; empty until
   * the video is ready.
   */
  aspects: z.array(JobAspectVideo).default([]),
});
export type Job = z.infer<typeof Job>;

export const QueueJobResponse = z.object({ id: z.number().int() });
export const QueueHookPackVideosResponse = z.object({ hook_pack_id: z.number().int(), total_jobs: z.number().int() });
export const QueueProductInHandResponse = z.object({ total_jobs: z.number().int() });

/** Server-sent event payload on GET /jobs/events. */
export const JobEvent = z.object({ type: z.literal('job'), job: Job });
export type JobEvent = z.infer<typeof JobEvent>;

/** GET /stats: figures measured or counted on this installation (landing page, FAQs). */
export const PublicStats = z.object({
  /** Median seconds one video took to render recently; null before the first render finishes. */
  seconds_per_video: z.number().nullable(),
  videos_measured: z.number().int(),
  actors: z.number().int(),
  languages: z.number().int(),
});
export type PublicStats = z.infer<typeof PublicStats>;
