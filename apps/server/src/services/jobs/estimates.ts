import { LANGUAGES, type VideoQuality } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { jobStatsRepository } from '../../db/repositories/job-stats.ts';
import type { JobRow } from '../../db/repositories/jobs.ts';
import { renderQualityOf } from './payloads.ts';

/**
 * Time estimates from what this installation actually measured (docs/decisions/110): the median render time
 * of the last videos, and the queue ahead of a job. With no finished video yet there is no measurement and
 * every estimate is null; the screens then fall back to their fixed progress rules.
 */

/** How many recent renders the median is taken over: enough to ignore one slow outlier, recent enough to follow load. */
const SAMPLE = 20;
/** A snapshot is reused this long, so a list of 100 jobs or a burst of live events costs two queries, not 200. */
const SNAPSHOT_TTL_MS = 2_000;

export interface Throughput {
  /** Median seconds from start to finish of a recent video render; null before the first one finishes. */
  secondsPerVideo: number | null;
  samples: number;
}

export interface EstimateSnapshot extends Throughput {
  /**
   * The same median over recent Realistic renders, which wait on the providers and take far longer than a Draft
   * (secondsPerVideo is then the Drafts' median); null before one finished.
   */
  realisticSecondsPerVideo: number | null;
  /** Queued video jobs in queue order (ids). */
  queued: number[];
  /** Renders running now: how many the installation works on at once (at least 1). */
  running: number;
}

/**
 * The median run time of recent completed jobs of these kinds (video renders unless named); of one quality only
 * when `quality` is given (a few more recent runs are read so that each quality can have its sample).
 */
export async function measureThroughput(
  ctx: Pick<AppContext, 'db' | 'jobs'>,
  names: readonly string[] = ctx.jobs.videoJobNames,
  quality?: VideoQuality,
): Promise<Throughput> {
  const recent = await jobStatsRepository.recentRuns(ctx.db.kysely, names, quality ? SAMPLE * 5 : SAMPLE);
  const runs = quality ? recent.filter((r) => renderQualityOf(r) === quality).slice(0, SAMPLE) : recent;
  const seconds = runs
    .map((r) => (Date.parse(r.finished_at ?? '') - Date.parse(r.started_at ?? '')) / 1000)
    .filter((s) => Number.isFinite(s) && s > 0)
    .sort((a, b) => a - b);
  if (seconds.length === 0) return { secondsPerVideo: null, samples: 0 };
  const mid = Math.floor(seconds.length / 2);
  const median = seconds.length % 2 ? seconds[mid]! : (seconds[mid - 1]! + seconds[mid]!) / 2;
  return { secondsPerVideo: Math.round(median * 10) / 10, samples: seconds.length };
}

const cache = new WeakMap<object, { at: number; snapshot: Promise<EstimateSnapshot> }>();

/** The current throughput and queue, shared by every job DTO built within SNAPSHOT_TTL_MS. */
export function estimateSnapshot(ctx: Pick<AppContext, 'db' | 'jobs'>, now = Date.now()): Promise<EstimateSnapshot> {
  const hit = cache.get(ctx.db);
  if (hit && now - hit.at < SNAPSHOT_TTL_MS) return hit.snapshot;
  const snapshot = (async () => {
    const [draft, realistic, active] = await Promise.all([
      measureThroughput(ctx, ctx.jobs.videoJobNames, 'draft'),
      measureThroughput(ctx, ctx.jobs.videoJobNames, 'realistic'),
      jobStatsRepository.active(ctx.db.kysely, ctx.jobs.videoJobNames),
    ]);
    return {
      ...draft,
      realisticSecondsPerVideo: realistic.secondsPerVideo,
      queued: active.filter((j) => j.status === 'queued').map((j) => j.id),
      running: Math.max(1, active.filter((j) => j.status === 'in_progress').length),
    };
  })();
  cache.set(ctx.db, { at: now, snapshot });
  snapshot.catch(() => cache.delete(ctx.db));
  return snapshot;
}

/**
 * Seconds until the job's video is ready, or null when nothing has been measured yet for its quality (or it is
 * done): a Realistic video is timed by Realistic renders only, so a Draft's seconds are never promised for it. A
 * running job has the rest of one render left; a queued one waits for the renders ahead of it, `running` at a time.
 */
export function etaSeconds(
  row: Pick<JobRow, 'id' | 'status' | 'progress' | 'payload'>,
  s: EstimateSnapshot,
): number | null {
  const perVideo = renderQualityOf(row) === 'realistic' ? s.realisticSecondsPerVideo : s.secondsPerVideo;
  if (perVideo === null) return null;
  if (row.status === 'in_progress') return remainingSeconds(perVideo, row.progress);
  if (row.status !== 'queued') return null;
  const ahead = Math.max(0, s.queued.indexOf(row.id));
  return Math.round(perVideo * (Math.floor(ahead / s.running) + 1));
}

/** GET /stats: the figures the landing page and FAQs quote, all measured or counted here. */
export async function publicStats(ctx: Pick<AppContext, 'db' | 'jobs'>) {
  const [throughput, actors] = await Promise.all([
    measureThroughput(ctx),
    jobStatsRepository.libraryActors(ctx.db.kysely),
  ]);
  return {
    seconds_per_video: throughput.secondsPerVideo,
    videos_measured: throughput.samples,
    actors,
    languages: LANGUAGES.length,
  };
}

/** Seconds left for a running step that usually takes `medianSec`, at `progress` percent (at least 1). */
export function remainingSeconds(medianSec: number | null, progress: number): number | null {
  if (medianSec === null) return null;
  return Math.max(1, Math.round(medianSec * (1 - Math.min(99, Math.max(0, progress)) / 100)));
}
