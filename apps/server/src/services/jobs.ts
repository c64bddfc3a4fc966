import { parseCost } from '../jobs/cost.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  INSUFFICIENT_CREDITS,
  MESSAGES,
  PRICES,
  REALISTIC_HOOK_SECONDS,
  VALIDATION,
  VideoQuality,
  realisticVideoCost,
  MIN_BILLED_SECONDS,
  spokenSeconds,
  type Job,
  type PricedOperation,
  type RealisticUpgrade,
} from '@hookreel/contracts';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context.ts';
import { now } from '../db/database.ts';
import type { Executor } from '../db/database.ts';
import { jobsRepository, type JobRow } from '../db/repositories/jobs.ts';
import { hookPacksRepository } from '../db/repositories/hook-packs.ts';
import { projectsRepository } from '../db/repositories/projects.ts';
import type { Database } from '../db/schema.ts';
import { conflict, notFound, unprocessable } from '../errors.ts';
import { engineConfig } from '../media/engine.ts';
import { assertInventedPerson, ContentRuleError, realisticAvailability } from '@hookreel/engine';
import { encodePayload, type JobDefinition } from '../jobs/definition.ts';
import { jobFilePrefix } from '../jobs/files.ts';
import type { ProjectForRender } from '../media/port.ts';
import type { JobName } from '../job-definitions.ts';
import { jobAspectVideos, qualityOfResult } from '../jobs/quality.ts';
import { releaseHold, reserveCredits, toHundredths } from './credits.ts';
import { estimateSnapshot, etaSeconds, type EstimateSnapshot } from './estimates.ts';
import { aspectFileName, videoFileName } from './file-names.ts';
import { extraAspectsOf } from './video-style.ts';
import { renderHookVideoJob } from './hook-packs.jobs.ts';
import { renderProjectVideoJob } from './projects.jobs.ts';

/**
 * How the jobs area finds a user's project without owning the projects tables. The projects area plugs its
 * implementation into `ctx.projectSource`; the default reads the projects table (projectsTableSource below).
 */
export interface ProjectSource {
  /** The project if it exists and belongs to the user, else null. Runs on the given executor (maybe a trx). */
  findOwned(db: Executor, userId: number, projectId: number): Promise<ProjectForRender | null>;
}
export const noProjectSource: ProjectSource = { findOwned: async () => null };

/** The 402 message per priced operation (docs/product.md#messages). */
const INSUFFICIENT_MESSAGE: Record<PricedOperation, string> = {
  video: INSUFFICIENT_CREDITS.videos,
  characterGeneration: INSUFFICIENT_CREDITS.characters,
  previewImage: INSUFFICIENT_CREDITS.previews,
  merge: INSUFFICIENT_CREDITS.merge,
};

/** Jobs that produce a video: they are what the jobs screens list and what the "videos ready" e-mail counts. */
export const VIDEO_JOB_NAMES: readonly JobName[] = [renderProjectVideoJob.name, renderHookVideoJob.name];

export interface NewJob<P> {
  userId: number;
  /** Ids and options only, checked against the job's schema here; handlers reload everything else. */
  payload: P;
  /** Display name on job cards (contracts Job.project_name). */
  projectName: string;
  projectId?: number | null;
  hookPackId?: number | null;
  variantIndex?: number | null;
  /** Who is in the video and which video of a pack it is, as the UI shows them (see job-labels migration). */
  labels?: {
    actorName?: string | null;
    variantLabel?: string | null;
    hookText?: string | null;
    variantId?: string | null;
  };
  /**
   * Reserve `units` × PRICES[price] credits for this job under one hold (402 with the message for the operation,
   * or `insufficientMessage`, when the balance is short). The runner captures it on success, releases it on failure.
   */
  price?: PricedOperation;
  /** How many priced items the job makes (e.g. 4 previews in one job); 1 when absent. */
  units?: number;
  /**
   * The exact credits to hold instead of `units` × PRICES[price] (a Realistic video, priced by its length); `price`
   * still names the operation for the 402 message. Zero holds nothing.
   */
  credits?: number;
  insufficientMessage?: string;
  /** Jobs of one request share a batch id: one "videos ready" e-mail per batch. */
  batchId?: string | null;
  idempotencyKey?: string | null;
  maxAttempts?: number;
}

/**
 * The one way to create a job: its payload is checked against the definition's schema (a bad one is refused
 * before anything is written), its credits are reserved, and the row is inserted, all inside the caller's
 * transaction, so the job and its hold commit together or not at all. Call `ctx.jobs.enqueue(ids)` after the
 * transaction commits (or use submitJobs).
 */
export async function createJob<P>(
  trx: Transaction<Database>,
  job: JobDefinition<JobName, P>,
  spec: NewJob<NoInfer<P>>,
): Promise<number> {
  const payload = encodePayload(job, spec.payload);
  const units = spec.units ?? 1;
  if (!Number.isSafeInteger(units) || units < 1)
    throw new Error(`A job holds credits for at least one unit, not ${units}`);
  const amount =
    spec.price === undefined
      ? 0
      : spec.credits !== undefined
        ? toHundredths(spec.credits)
        : toHundredths(PRICES[spec.price]) * units;
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`A job cannot hold ${spec.credits} credits`);
  const holdId =
    spec.price !== undefined && amount > 0
      ? await reserveCredits(
          trx,
          spec.userId,
          amount,
          job.name,
          spec.insufficientMessage ?? INSUFFICIENT_MESSAGE[spec.price],
        )
      : null;
  const t = now();
  return jobsRepository.insert(trx, {
    user_id: spec.userId,
    name: job.name,
    project_id: spec.projectId ?? null,
    hook_pack_id: spec.hookPackId ?? null,
    variant_index: spec.variantIndex ?? null,
    project_name: spec.projectName,
    actor_name: spec.labels?.actorName ?? null,
    variant_label: spec.labels?.variantLabel ?? null,
    hook_text: spec.labels?.hookText ?? null,
    variant_id: spec.labels?.variantId ?? null,
    status: 'queued',
    progress: 0,
    payload,
    logs: JSON.stringify(['Queued']),
    result: null,
    video_key: null,
    poster_key: null,
    error: null,
    attempts: 0,
    max_attempts: spec.maxAttempts ?? 3,
    lease_owner: null,
    lease_expires_at: null,
    run_after: t,
    hold_id: holdId,
    idempotency_key: spec.idempotencyKey ?? null,
    file_token: randomBytes(12).toString('base64url'),
    batch_id: spec.batchId ?? null,
    notified_at: null,
    created_at: t,
    updated_at: t,
  });
}

/**
 * Runs `build` in one transaction (create jobs with createJob there, alongside the feature's own rows), then
 * after commit dispatches the new jobs and tells event listeners. Returns what `build` returned.
 */
export async function submitJobs<T extends { jobIds: number[] }>(
  ctx: AppContext,
  userId: number,
  build: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const out = await ctx.db.kysely.transaction().execute(build);
  for (const id of out.jobIds) ctx.jobEvents.publish({ userId, jobId: id });
  await ctx.jobs.enqueue(out.jobIds);
  return out;
}

export const newBatchId = (): string => randomUUID();

/**
 * Realistic needs the providers of every realistic stage (GET /api/capabilities says which): refused with the
 * missing ones named when this server lacks any, so no credits are held for a job that would only fail.
 */
export function assertRealisticAvailable(kind: 'videos' | 'hookPacks' = 'videos'): void {
  const availability = realisticAvailability(engineConfig().remote)[kind];
  if (!availability.available) {
    throw unprocessable(`${MESSAGES.realistic.unavailable} ${availability.missing.join('; ')}.`);
  }
}

/**
 * A Realistic hook video makes its character photoreal from the character's description, so a description that
 * asks for a named or famous person is refused here (422), before anything is held, rather than failing at the
 * images provider once the user has paid and waited.
 */
export async function assertInventedCharacters(
  db: Executor,
  packId: number,
  characterIds: readonly number[],
): Promise<void> {
  for (const c of await hookPacksRepository.charactersByIds(db, packId, [...new Set(characterIds)])) {
    try {
      assertInventedPerson(c.prompt);
    } catch (e) {
      throw e instanceof ContentRuleError ? unprocessable(e.message) : e;
    }
  }
}

/**
 * A catalogue actor is a drawing: Realistic makes it a real-looking person through the images provider first
 * (decision 125). Without that provider the talking-actor model would animate the drawing, so a Realistic video or
 * merge of one is refused here (422), before anything is held; an uploaded photo actor needs no images provider.
 */
export function assertRealisticActor(avatar: { catalogue_actor_id: string | null }): void {
  if (avatar.catalogue_actor_id !== null && !engineConfig().remote.images) {
    throw unprocessable(MESSAGES.realistic.catalogueActorNeedsImages);
  }
}

/** What pricing needs of a project: its script and speed, or the length of its own recording when that speaks. */
type PricedProject = {
  script: string;
  voice_speed: number;
  voice_source?: string;
  voice_over_duration_sec?: number | null;
};

/**
 * What one video of a project costs in its quality: the Draft price, or the Realistic price for its length — the
 * script's estimated speaking time, or the measured length of the user's own recording when it is the voice.
 */
export function projectVideoCredits(
  ctx: Pick<AppContext, 'config'>,
  quality: VideoQuality,
  project: PricedProject,
): number {
  if (quality !== 'realistic') return PRICES.video;
  return realisticVideoCost(ctx.config.realisticCreditsPerSecond, projectSpeechSeconds(project));
}

/** Seconds of speech a project's video carries: the user's own recording's length, else the script's estimate. */
function projectSpeechSeconds(project: PricedProject): number {
  const own = project.voice_source === 'own' && project.voice_over_duration_sec != null;
  return own
    ? Math.max(MIN_BILLED_SECONDS, Math.ceil(Number(project.voice_over_duration_sec)))
    : spokenSeconds(project.script, project.voice_speed);
}

/**
 * A Realistic video's speech must fit the talking-actor model (OmniHuman takes under 30 s): refused here, 422,
 * before any credit is held or any provider called, rather than failing at the last step after the voice and the
 * image were paid for. Long speech is refused, not split (decision 183).
 */
export function assertSpeechFitsAvatar(seconds: number): void {
  const max = engineConfig().lipsync?.maxAudioSec;
  if (max != null && seconds > max) throw unprocessable(MESSAGES.realistic.speechTooLong(seconds, max));
}

/** The quality a video job was queued in (jobs from before the choice existed were drafts). */
export function renderQualityOf(row: Pick<JobRow, 'payload'>): VideoQuality {
  try {
    const parsed = VideoQuality.safeParse((JSON.parse(row.payload) as { quality?: unknown }).quality);
    return parsed.success ? parsed.data : 'draft';
  } catch {
    return 'draft';
  }
}

/** POST /jobs/{projectId}/queue: one render of the project in its quality, paid with that video's price. */
export async function queueProjectVideo(ctx: AppContext, userId: number, projectId: number): Promise<{ id: number }> {
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const project = await ctx.projectSource.findOwned(trx, userId, projectId);
    if (!project) throw notFound();
    // A script is required (docs/product.md#rules): without one the render has nothing to say (and would only fail).
    if (!project.script.trim()) throw unprocessable(VALIDATION.scriptRequired);
    const row = await projectsRepository.findOwned(trx, userId, projectId);
    const quality = VideoQuality.catch('draft').parse(row?.render_quality);
    const priced: PricedProject = {
      script: project.script,
      voice_speed: row?.voice_speed ?? 1,
      voice_source: row?.voice_source,
      voice_over_duration_sec: row?.voice_over_duration_sec ?? null,
    };
    if (quality === 'realistic') {
      assertRealisticAvailable();
      assertSpeechFitsAvatar(projectSpeechSeconds(priced));
    }
    // The render features the first chosen actor (render-project-video); the card and file name say who. Without
    // one there is nobody to present the product: the editor keeps Generate disabled, and so does the server.
    const chosen = (await projectsRepository.charactersOf(trx, [projectId])).find((c) => c.selected);
    if (!chosen) {
      throw unprocessable(quality === 'realistic' ? MESSAGES.realistic.needsActor : VALIDATION.selectOneActor);
    }
    if (quality === 'realistic') assertRealisticActor(chosen);
    const id = await createJob(trx, renderProjectVideoJob, {
      labels: { actorName: chosen.name ?? `Actor ${chosen.avatar_id}` },
      userId,
      payload: { projectId, quality, aspects: extraAspectsOf(row?.aspects) },
      projectName: project.name,
      projectId,
      price: 'video',
      credits: projectVideoCredits(ctx, quality, priced),
      insufficientMessage: INSUFFICIENT_CREDITS.videos,
      batchId: newBatchId(),
    });
    return { jobIds: [id] };
  });
  return { id: jobIds[0]! };
}

/**
 * POST /jobs/{id}/make-realistic: the same video rendered again through the providers as a new job, holding only
 * the difference between the Realistic price and the Draft price paid. A project video keeps its project, actor,
 * placement and script; a hook-pack video keeps its pack, hook line, character and placement, and becomes the
 * pack's video once it is done (the draft stays among the jobs).
 */
export async function makeRealistic(ctx: AppContext, userId: number, jobId: number): Promise<{ id: number }> {
  const { jobIds } = await submitJobs(ctx, userId, async (trx) => {
    const job = await jobsRepository.findOwned(trx, userId, jobId);
    if (!job) throw notFound(MESSAGES.jobs.notFound);
    if (job.status !== 'completed' || renderQualityOf(job) !== 'draft') throw conflict(MESSAGES.jobs.notUpgradable);
    if (job.name === renderHookVideoJob.name && job.hook_pack_id !== null) {
      return { jobIds: [await upgradePackVideo(ctx, trx, job, job.hook_pack_id)] };
    }
    if (job.name !== renderProjectVideoJob.name || job.project_id === null) {
      throw conflict(MESSAGES.jobs.notUpgradable);
    }
    const project = await projectsRepository.findOwned(trx, userId, job.project_id);
    if (!project) throw conflict(MESSAGES.jobs.notUpgradable);
    if (!project.script.trim()) throw unprocessable(VALIDATION.scriptRequired);
    // One upgrade of a draft at a time (two tabs would pay twice); once it is done or failed it may be asked again.
    const upgrades = await jobsRepository.ofProjects(trx, renderProjectVideoJob.name, [project.id]);
    if (upgrades.some((o) => upgradeOf(o) === job.id && (o.status === 'queued' || o.status === 'in_progress'))) {
      throw conflict(MESSAGES.jobs.upgradeUnderway);
    }
    assertRealisticAvailable();
    assertSpeechFitsAvatar(projectSpeechSeconds(project));
    const draft = renderProjectVideoJob.payload.parse(JSON.parse(job.payload));
    // The actor the draft featured, or the project's first chosen one: gone since, nobody real is left to animate.
    const chars = await projectsRepository.charactersOf(trx, [project.id]);
    const actor = draft.avatarId ? chars.find((c) => c.avatar_id === draft.avatarId) : chars.find((c) => c.selected);
    if (!actor) throw unprocessable(MESSAGES.realistic.needsActor);
    assertRealisticActor(actor);
    const id = await createJob(trx, renderProjectVideoJob, {
      labels: { actorName: job.actor_name, variantLabel: job.variant_label, hookText: job.hook_text },
      userId,
      payload: {
        projectId: project.id,
        avatarId: draft.avatarId,
        quality: 'realistic',
        aspects: draft.aspects,
        upgradeOf: job.id,
      },
      projectName: project.name,
      projectId: project.id,
      variantIndex: job.variant_index,
      price: 'video',
      credits: upgradeCredits(ctx, project),
      insufficientMessage: INSUFFICIENT_CREDITS.videos,
      batchId: newBatchId(),
    });
    return { jobIds: [id] };
  });
  return { id: jobIds[0]! };
}

/**
 * "Make realistic" on a finished draft video of a hook pack: one upgrade per video at a time, and only of the
 * video the pack shows now (the pack's row is locked on PostgreSQL so two tabs cannot both pass the check).
 */
async function upgradePackVideo(
  ctx: AppContext,
  trx: Transaction<Database>,
  job: JobRow,
  packId: number,
): Promise<number> {
  await hookPacksRepository.lockForQueueing(trx, ctx.db.dialect, packId);
  const pack = await hookPacksRepository.findOwned(trx, job.user_id, packId);
  const index = job.variant_index;
  if (!pack || index === null) throw conflict(MESSAGES.jobs.notUpgradable);
  const others = await jobsRepository.unfailedOfPacks(trx, renderHookVideoJob.name, [packId]);
  if (others.some((o) => upgradeOf(o) === job.id)) throw conflict(MESSAGES.jobs.upgradeUnderway);
  const shown = await hookPacksRepository.variantJobIds(trx, [packId]);
  if (shown.get(`${packId}:${index}`) !== job.id) throw conflict(MESSAGES.jobs.upgradeOutdated);
  assertRealisticAvailable('hookPacks');
  const variant = await hookPacksRepository.findVariant(trx, packId, index);
  if (variant) await assertInventedCharacters(trx, packId, [variant.generated_character_id]);
  return createJob(trx, renderHookVideoJob, {
    userId: job.user_id,
    // The upgrade keeps the frame shapes the draft was made in.
    payload: {
      hookPackId: packId,
      variantIndex: index,
      quality: 'realistic',
      upgradeOf: job.id,
      aspects: renderHookVideoJob.payload.parse(JSON.parse(job.payload)).aspects,
    },
    projectName: job.project_name,
    hookPackId: packId,
    variantIndex: index,
    labels: {
      actorName: job.actor_name,
      variantLabel: job.variant_label,
      hookText: job.hook_text,
      variantId: job.variant_id,
    },
    price: 'video',
    credits: packUpgradeCredits(ctx),
    insufficientMessage: INSUFFICIENT_CREDITS.videos,
    batchId: newBatchId(),
  });
}

/** Per pack, its videos being made realistic now: how many, and their mean progress (the hook-pack list). */
export async function packUpgradesUnderway(
  ctx: Pick<AppContext, 'db'>,
  packIds: number[],
): Promise<Map<number, { count: number; progress: number }>> {
  const running = (await jobsRepository.unfinishedOfPacks(ctx.db.kysely, renderHookVideoJob.name, packIds)).filter(
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

/** The draft job a "Make realistic" video (of a hook pack or a project) upgrades, or null. */
function upgradeOf(row: Pick<JobRow, 'payload'>): number | null {
  try {
    const v = (JSON.parse(row.payload) as { upgradeOf?: unknown }).upgradeOf;
    return typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}

/** The Realistic price of a project's video minus the Draft price already paid for it. */
const upgradeCredits = (ctx: Pick<AppContext, 'config'>, project: PricedProject) =>
  Math.round((projectVideoCredits(ctx, 'realistic', project) - PRICES.video) * 100) / 100;

/** A hook video's Realistic price (a flat length, whatever its line) minus the Draft price already paid. */
const packUpgradeCredits = (ctx: Pick<AppContext, 'config'>) =>
  Math.round((realisticVideoCost(ctx.config.realisticCreditsPerSecond, REALISTIC_HOOK_SECONDS) - PRICES.video) * 100) /
  100;

export async function listJobs(ctx: AppContext, userId: number): Promise<Job[]> {
  const rows = await jobsRepository.listForUser(ctx.db.kysely, userId, VIDEO_JOB_NAMES);
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
export async function withEstimates(ctx: Pick<AppContext, 'db' | 'config'>, rows: JobRow[]): Promise<Job[]> {
  const pending = rows.some((r) => r.status === 'queued' || r.status === 'in_progress');
  const snapshot = pending ? await estimateSnapshot(ctx) : null;
  const upgradable = rows.filter(
    (r) =>
      r.name === renderProjectVideoJob.name &&
      r.status === 'completed' &&
      r.project_id !== null &&
      renderQualityOf(r) === 'draft',
  );
  const projects = new Map<number, PricedProject>();
  for (const userId of new Set(upgradable.map((r) => r.user_id))) {
    const ids = [...new Set(upgradable.filter((r) => r.user_id === userId).map((r) => r.project_id!))];
    for (const p of await projectsRepository.scriptsOf(ctx.db.kysely, userId, ids)) projects.set(p.id, p);
  }
  const packVideos = await packVideoUpgrades(ctx, rows);
  const projectUpgrades = await projectVideoUpgrades(ctx, upgradable);
  return rows.map((r) => {
    const dto = toJobDto(r, snapshot);
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
  const upgrades = upgradesByDraft(
    await jobsRepository.ofProjects(ctx.db.kysely, renderProjectVideoJob.name, projectIds),
  );
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
      r.name === renderHookVideoJob.name &&
      r.status === 'completed' &&
      r.hook_pack_id !== null &&
      r.variant_index !== null &&
      renderQualityOf(r) === 'draft',
  );
  if (drafts.length === 0) return new Map();
  const packIds = [...new Set(drafts.map((r) => r.hook_pack_id!))];
  const shown = await hookPacksRepository.variantJobIds(ctx.db.kysely, packIds);
  const upgrades = upgradesByDraft(await jobsRepository.ofPacks(ctx.db.kysely, renderHookVideoJob.name, packIds));
  const result = new Map<number, { offered: boolean; upgrade: RealisticUpgrade | null }>();
  for (const r of drafts) {
    if (shown.get(`${r.hook_pack_id}:${r.variant_index}`) !== r.id) continue;
    const own = upgrades.get(r.id) ?? [];
    // A done upgrade has already taken the draft's place in the pack.
    const offered = own.every((o) => o.status === 'failed');
    result.set(r.id, { offered, upgrade: latestUpgrade(own) });
  }
  return result;
}

/**
 * The job for the live stream, or null (vanished, not the user's, or not a video): only video jobs, the ones the
 * jobs screens list. Merges, characters and previews report through their own screens' polling; streamed, they
 * would land in the browser's video list.
 */
export async function findStreamedJobDto(ctx: AppContext, userId: number, jobId: number): Promise<Job | null> {
  const row = await jobsRepository.findOwned(ctx.db.kysely, userId, jobId);
  return row && (VIDEO_JOB_NAMES as readonly string[]).includes(row.name)
    ? ((await withEstimates(ctx, [row]))[0] ?? null)
    : null;
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
}

const jobStatusOf = (row: Pick<JobRow, 'status'>) =>
  (['queued', 'in_progress', 'completed', 'failed'] as const).find((s) => s === row.status) ?? 'queued';

export function toJobDto(row: JobRow, estimates: EstimateSnapshot | null = null): Job {
  let logs: string[] = [];
  try {
    const v: unknown = JSON.parse(row.logs);
    if (Array.isArray(v)) logs = v.map(String);
  } catch {
    logs = [];
  }
  const status = jobStatusOf(row);
  return {
    id: row.id,
    project_id: row.project_id,
    project_name: row.project_name,
    // Deleting a project detaches its videos (project_id cleared, name kept): see deleteProject.
    project_deleted: row.name === 'render-project-video' && row.project_id === null,
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
    cost: parseCost(row.cost),
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

/** The default project source: the projects table (repository of the projects area). */
export const projectsTableSource: ProjectSource = {
  async findOwned(db, userId, projectId) {
    const p = await projectsRepository.findOwned(db, userId, projectId);
    return p
      ? { id: p.id, name: p.name, script: p.script, language: p.language, accent: p.accent, fileKey: p.file_key }
      : null;
  },
};
