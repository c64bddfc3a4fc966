import { MESSAGES, type Job, type ProviderPrices, type RealisticUpgrade } from '@hookreel/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository } from '../../db/repositories/hook-packs.ts';
import { jobsRepository, type JobRow } from '../../db/repositories/jobs.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import { notFound } from '../../errors.ts';
import { parseCost } from '../../jobs/cost.ts';
import { jobFilePrefix, jobPaidPrefix } from '../../jobs/files.ts';
import { jobAspectVideos, qualityOfResult } from '../video/index.ts';
import type { JobName } from '../../job-definitions.ts';
import { costInUsd, providerPrices, releaseHold } from '../billing/index.ts';
import { aspectFileName, videoFileName } from '../video/index.ts';
import { packUpgradeCredits, upgradeCredits, type PricedProject } from '../video/index.ts';
import { estimateSnapshot, etaSeconds, type EstimateSnapshot } from './estimates.ts';
import { renderQualityOf, upgradeOf } from './payloads.ts';

/**
 * Reading jobs: the DTO the screens show (with time estimates and what "Make realistic" would cost), the lists,
 * and deleting one. The jobs area imports no feature: it tells the two video jobs apart by their stored names.
 */
const PROJECT_VIDEO = 'render-project-video' satisfies JobName;
const HOOK_VIDEO = 'render-hook-video' satisfies JobName;

/** Per pack, its videos being made realistic now: how many, and their mean progress (the hook-pack list). */
export async function packUpgradesUnderway(
  ctx: Pick<AppContext, 'db'>,
  packIds: number[],
): Promise<Map<number, { count: number; progress: number }>> {
  const running = (await jobsRepository.unfinishedOfPacks(ctx.db.kysely, HOOK_VIDEO, packIds)).filter(
    (r) => upgradeOf(r) !== null,
  );
  const byPack = new Map<number, JobRow[]>();
  for (const r of running) byPack.set(r.hook_pack_id!, [...(byPack.get(r.hook_pack_id!) ?? []), r]);
  return new Map(
    [...byPack].map(([packId, rows]) => [
      packId,
      {
        count: rows.length,
        progress: Math.round(rows.reduce((sum, r) => sum + Math.max(0, Math.min(100, r.progress)), 0) / rows.length),
      },
    ]),
  );
}

export async function listJobs(ctx: AppContext, userId: number): Promise<Job[]> {
  const rows = await jobsRepository.listForUser(ctx.db.kysely, userId, ctx.jobs.videoJobNames);
  return withEstimates(ctx, rows);
}

export async function getJob(ctx: AppContext, userId: number, jobId: number): Promise<Job> {
  const row = await jobsRepository.findOwned(ctx.db.kysely, userId, jobId);
  if (!row) throw notFound(MESSAGES.jobs.notFound);
  return (await withEstimates(ctx, [row]))[0]!;
}

/**
 * Job DTOs with their measured time left (eta_seconds) where the job is still waiting or running, and what "Make
 * realistic" would cost for finished draft project videos.
 */
export async function withEstimates(ctx: Pick<AppContext, 'db' | 'config' | 'jobs'>, rows: JobRow[]): Promise<Job[]> {
  const pending = rows.some((r) => r.status === 'queued' || r.status === 'in_progress');
  const snapshot = pending ? await estimateSnapshot(ctx) : null;
  const upgradable = rows.filter(
    (r) =>
      r.name === PROJECT_VIDEO && r.status === 'completed' && r.project_id !== null && renderQualityOf(r) === 'draft',
  );
  const projects = new Map<number, PricedProject>();
  for (const userId of new Set(upgradable.map((r) => r.user_id))) {
    const ids = [...new Set(upgradable.filter((r) => r.user_id === userId).map((r) => r.project_id!))];
    for (const p of await projectsRepository.scriptsOf(ctx.db.kysely, userId, ids)) projects.set(p.id, p);
  }
  const packVideos = await packVideoUpgrades(ctx, rows);
  const projectUpgrades = await projectVideoUpgrades(ctx, upgradable);
  const prices = providerPrices(ctx.config.providerPriceSettings);
  return rows.map((r) => {
    const dto = toJobDto(r, snapshot, prices);
    const pack = packVideos.get(r.id);
    if (pack) {
      return {
        ...dto,
        realistic_upgrade_cost: pack.offered ? packUpgradeCredits(ctx) : null,
        realistic_upgrade: pack.upgrade,
      };
    }
    const project = upgradable.includes(r) ? projects.get(r.project_id!) : undefined;
    const upgrade = projectUpgrades.get(r.id) ?? null;
    // Not offered again while its upgrade waits or runs; after that (done or failed) it is, on purpose.
    const offered = project?.script.trim() && !(upgrade && upgrade.status !== 'failed');
    return {
      ...dto,
      realistic_upgrade_cost: offered ? upgradeCredits(ctx, project!) : null,
      realistic_upgrade: upgrade,
    };
  });
}

/** "Make realistic" jobs among `jobs`, by the draft each upgrades, in the order given (oldest first). */
function upgradesByDraft(jobs: readonly JobRow[]): Map<number, JobRow[]> {
  const byDraft = new Map<number, JobRow[]>();
  for (const o of jobs) {
    const of = upgradeOf(o);
    if (of !== null) byDraft.set(of, [...(byDraft.get(of) ?? []), o]);
  }
  return byDraft;
}

/** The latest upgrade of a draft while it waits or runs, or after it failed; null once done or never asked. */
function latestUpgrade(own: readonly JobRow[]): RealisticUpgrade | null {
  // Oldest first: the last one is the latest attempt.
  const latest = own.at(-1);
  if (!latest || latest.status === 'completed') return null;
  return {
    job_id: latest.id,
    status: jobStatusOf(latest),
    progress: Math.max(0, Math.min(100, latest.progress)),
    error: latest.status === 'failed' ? latest.error : null,
  };
}

/**
 * For each finished draft project video among `drafts`, its latest "Make realistic" while that waits or runs, or
 * after it failed, so the draft's card and details page say how the upgrade is going. A done upgrade is its own
 * video in the list beside the draft, so it is not reported on the draft.
 */
async function projectVideoUpgrades(
  ctx: Pick<AppContext, 'db'>,
  drafts: JobRow[],
): Promise<Map<number, RealisticUpgrade>> {
  if (drafts.length === 0) return new Map();
  const projectIds = [...new Set(drafts.map((r) => r.project_id!))];
  const upgrades = upgradesByDraft(await jobsRepository.ofProjects(ctx.db.kysely, PROJECT_VIDEO, projectIds));
  const result = new Map<number, RealisticUpgrade>();
  for (const r of drafts) {
    const upgrade = latestUpgrade(upgrades.get(r.id) ?? []);
    if (upgrade) result.set(r.id, upgrade);
  }
  return result;
}

/**
 * What "Make realistic" means for each finished draft hook video among `rows` that its pack still shows: offered
 * when no upgrade of it is queued, running or done; and its latest upgrade while that waits or runs, or after it
 * failed, so the pack's job list can show the upgrade under the draft until the realistic video replaces it.
 */
async function packVideoUpgrades(
  ctx: Pick<AppContext, 'db'>,
  rows: JobRow[],
): Promise<Map<number, { offered: boolean; upgrade: RealisticUpgrade | null }>> {
  const drafts = rows.filter(
    (r) =>
      r.name === HOOK_VIDEO &&
      r.status === 'completed' &&
      r.hook_pack_id !== null &&
      r.variant_index !== null &&
      renderQualityOf(r) === 'draft',
  );
  if (drafts.length === 0) return new Map();
  const packIds = [...new Set(drafts.map((r) => r.hook_pack_id!))];
  const shown = await hookPacksRepository.variantJobIds(ctx.db.kysely, packIds);
  const upgrades = upgradesByDraft(await jobsRepository.ofPacks(ctx.db.kysely, HOOK_VIDEO, packIds));
  const result = new Map<number, { offered: boolean; upgrade: RealisticUpgrade | null }>();
  for (const r of drafts) {
    if (shown.get(`${r.hook_pack_id}:${r.variant_index}`) !== r.id) continue;
    const own = upgrades.get(r.id) ?? [];
    // A done upgrade has already taken the draft's place in the pack. A video of one of the user's own creators is
    // not offered: Realistic hook videos are made from a description, not a photo (decision 207).
    const offered = own.every((o) => o.status === 'failed') && !animatesRealPhoto(r.result);
    result.set(r.id, { offered, upgrade: latestUpgrade(own) });
  }
  return result;
}

const RealPhotoResult = z.object({ real_photo: z.literal(true) });

/** Whether a finished video's result says it animates a real person's photo (decision 201). */
function animatesRealPhoto(result: string | null): boolean {
  if (!result) return false;
  try {
    return RealPhotoResult.safeParse(JSON.parse(result)).success;
  } catch {
    return false;
  }
}

/**
 * The job for the live stream, or null (vanished, not the user's, or not a video): only video jobs, the ones the
 * jobs screens list. Merges, characters and previews report through their own screens' polling; streamed, they
 * would land in the browser's video list.
 */
export async function findStreamedJobDto(ctx: AppContext, userId: number, jobId: number): Promise<Job | null> {
  const row = await jobsRepository.findOwned(ctx.db.kysely, userId, jobId);
  return row && ctx.jobs.videoJobNames.includes(row.name) ? ((await withEstimates(ctx, [row]))[0] ?? null) : null;
}

/**
 * Deletes the job: its hold is released unless it was already captured (release is a no-op then), a running
 * job is told to abort wherever it runs, and its files are removed.
 */
export async function deleteJob(ctx: AppContext, userId: number, jobId: number): Promise<void> {
  const row = await ctx.db.kysely.transaction().execute(async (trx) => {
    const job = await jobsRepository.findOwned(trx, userId, jobId);
    if (!job) throw notFound(MESSAGES.jobs.notFound);
    await jobsRepository.deleteById(trx, job.id);
    if (job.hold_id !== null) await releaseHold(trx, job.hold_id);
    return job;
  });
  ctx.jobEvents.publishCancel(row.id);
  await ctx.files.deletePrefix(jobFilePrefix(row)).catch(() => undefined);
  await ctx.files.deletePrefix(jobPaidPrefix(row)).catch(() => undefined);
}

const jobStatusOf = (row: Pick<JobRow, 'status'>) =>
  (['queued', 'in_progress', 'completed', 'failed'] as const).find((s) => s === row.status) ?? 'queued';

export function toJobDto(
  row: JobRow,
  estimates: EstimateSnapshot | null = null,
  prices: ProviderPrices | null = null,
): Job {
  let logs: string[] = [];
  try {
    const v: unknown = JSON.parse(row.logs);
    if (Array.isArray(v)) logs = v.map(String);
  } catch {
    logs = [];
  }
  const status = jobStatusOf(row);
  const cost = parseCost(row.cost);
  return {
    id: row.id,
    project_id: row.project_id,
    project_name: row.project_name,
    // Deleting a project detaches its videos (project_id cleared, name kept): see deleteProject.
    project_deleted: row.name === PROJECT_VIDEO && row.project_id === null,
    kind: row.name,
    status,
    progress: Math.max(0, Math.min(100, row.progress)),
    video_url: row.video_key ? `static/${row.video_key}` : null,
    poster_url: row.poster_key ? `static/${row.poster_key}` : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    logs,
    hook_pack_id: row.hook_pack_id,
    variant_index: row.variant_index,
    error: row.error,
    ...qualityOfResult(row.result),
    actor_name: row.actor_name,
    variant_label: row.variant_label,
    hook_text: row.hook_text,
    variant_id: row.variant_id,
    download_url: row.video_key ? `static/${row.video_key}?download=${downloadName(row)}` : null,
    eta_seconds: estimates ? etaSeconds(row, estimates) : null,
    cost,
    cost_usd: prices ? costInUsd(cost, prices) : null,
    render_quality: renderQualityOf(row),
    realistic_upgrade_cost: null,
    realistic_upgrade: null,
    aspects: jobAspectVideos(row, (aspect) => aspectFileName(downloadName(row), aspect)),
  };
}

/** The name a finished video downloads under: `<pack-or-project>-<variant>-<actor>.mp4`. */
export function downloadName(
  row: Pick<JobRow, 'project_name' | 'variant_label' | 'variant_index' | 'actor_name' | 'variant_id'>,
) {
  // A pack video's card name is '<pack> · Video #n': the file name spells the video number its own way.
  const suffix = row.variant_label ? ` · ${row.variant_label}` : '';
  const base =
    suffix && row.project_name.endsWith(suffix) ? row.project_name.slice(0, -suffix.length) : row.project_name;
  return videoFileName({
    base,
    variantIndex: row.variant_label ? row.variant_index : null,
    variantId: row.variant_id,
    actor: row.actor_name,
  });
}
