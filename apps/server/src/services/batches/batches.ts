import { newStyleDefaults } from '../video/index.ts';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  BATCH_LIMITS,
  BATCH_MESSAGES,
  BatchCellError,
  BatchRowValues,
  CANVAS,
  DEFAULT_ASPECT,
  INSUFFICIENT_CREDITS,
  LIMITS,
  PRICES,
  batchPrice,
  isProductUrl,
  aspectTag,
  creatorActorId,
  parseBatchSheet,
  type Aspect,
  type Batch,
  BatchRow,
  type BatchSummary,
  type Job,
  type MaskPlacement,
} from '@hookreel/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import { avatarsRepository } from '../../db/repositories/avatars.ts';
import {
  batchesRepository,
  type BatchRecord,
  type BatchRowRecord,
  type NewBatchRow,
} from '../../db/repositories/batches.ts';
import { jobsRepository } from '../../db/repositories/jobs.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import { conflict, HttpError, notFound, unprocessable } from '../../errors.ts';
import { storeUploadedImage, type UploadedFile } from '../../uploads/index.ts';
import { aiColumns, asciiSlug, videoFileName } from '../video/index.ts';
import { createJob, submitJobs, withEstimates } from '../jobs/index.ts';
import { assertCoversRequest, toHundredths } from '../billing/index.ts';
import { renderProjectVideoJob } from '../projects/index.ts';
import { fetchRemoteImage, type RemoteImageFetchOptions } from '../platform/index.ts';

/*
 * Batch from a spreadsheet (decision 138). POST /batches checks every row and fetches or matches its product
 * (nothing is spent); POST /batches/{id}/confirm turns each valid row into a normal project — the product, the
 * catalogue actor holding it, the hook and script, the call to action, the caption style — and queues one
 * render-project-video job per row with one video's credits held, all in one transaction.
 */

const batchNotFound = () => notFound(BATCH_MESSAGES.notFound);
const cellErrors = z.array(BatchCellError);

export interface NewBatchInput {
  csv: string;
  name?: string;
  /** Product images sent beside the sheet, matched to `product` cells by file name. */
  files: UploadedFile[];
}

/** POST /batches: the sheet parsed and checked, each product fetched (SSRF guard) or matched, stored as a draft. */
export async function createBatch(
  ctx: AppContext,
  userId: number,
  input: NewBatchInput,
  fetchOptions: RemoteImageFetchOptions = {},
): Promise<Batch> {
  if (input.files.length > BATCH_LIMITS.productFilesMax) throw new HttpError(413, BATCH_MESSAGES.tooManyProducts);
  // The user's own creators may be named in the actor column (decision 202); nobody else's are known here.
  const own = (await avatarsRepository.listOwn(ctx.db.kysely, userId)).map((r) => ({
    id: creatorActorId(r.id),
    name: r.name ?? '',
  }));
  const sheet = parseBatchSheet(input.csv, own, await ctx.media.voices());
  // Problems of the whole file (no header, a missing column, too many rows) leave no rows to show: one clear 422.
  if (sheet.errors.length > 0 || sheet.rows.length === 0) {
    const first = sheet.errors[0] ?? { line: 1, message: BATCH_MESSAGES.empty };
    throw unprocessable(`Line ${first.line}: ${first.message}`);
  }
  const attached = new Map(input.files.map((f) => [(f.filename ?? '').trim().toLowerCase(), f]));
  // Each distinct product is fetched or cleaned once; every further row that names it gets its own copy, since
  // each row becomes a project that owns (and on deletion removes) its product image.
  const stored = new Map<string, Promise<{ key: string; width: number; height: number } | { error: string }>>();
  const productOf = (ref: string) => {
    const known = stored.get(ref);
    if (known) return known;
    const made = storeProduct(ctx, userId, ref, attached, fetchOptions);
    stored.set(ref, made);
    return made;
  };
  const used = new Set<string>();
  const rows: NewBatchRow[] = [];
  for (const row of sheet.rows) {
    const errors = [...row.errors];
    let product: { key: string; width: number; height: number } | null = null;
    if (row.values.product && !errors.some((e) => e.column === 'product')) {
      const got = await productOf(row.values.product);
      if ('error' in got) errors.push({ line: row.line, column: 'product', message: got.error });
      else if (errors.length === 0) {
        product = used.has(got.key) ? { ...got, key: await copyStored(ctx, userId, got.key) } : got;
        used.add(got.key);
      }
    }
    rows.push({
      line: row.line,
      cells: JSON.stringify(row.cells),
      batch_values: JSON.stringify(row.values),
      errors: JSON.stringify(errors),
      product_key: product?.key ?? null,
      product_width: product?.width ?? null,
      product_height: product?.height ?? null,
      project_id: null,
      job_id: null,
    });
  }
  const at = now();
  const batch = await batchesRepository.insert(
    ctx.db.kysely,
    {
      user_id: userId,
      name: input.name?.trim() || `Batch ${at.slice(0, 16).replace('T', ' ')}`,
      status: 'draft',
      errors: JSON.stringify(sheet.errors),
      job_batch_id: randomUUID(),
      file_token: randomBytes(9).toString('base64url'),
      created_at: at,
      queued_at: null,
    },
    rows,
  );
  return getBatch(ctx, userId, batch.id);
}

async function storeProduct(
  ctx: AppContext,
  userId: number,
  ref: string,
  attached: Map<string, UploadedFile>,
  fetchOptions: RemoteImageFetchOptions,
): Promise<{ key: string; width: number; height: number } | { error: string }> {
  try {
    if (isProductUrl(ref)) {
      const got = await fetchRemoteImage(ctx, userId, ref, fetchOptions);
      return { key: got.file_path, width: got.width, height: got.height };
    }
    const file = attached.get(ref.toLowerCase());
    if (!file) return { error: BATCH_MESSAGES.productNotAttached(ref) };
    const got = await storeUploadedImage(ctx, { userId, area: 'projects', buffer: file.buffer });
    return { key: got.key, width: got.width, height: got.height };
  } catch (err) {
    // Refusals (a private address, not an image, too large) belong to the row's product cell, not the request.
    if (err instanceof HttpError && err.statusCode < 500) return { error: err.message };
    throw err;
  }
}

/** A second stored copy of an already cleaned product image, under a fresh key of the user's. */
async function copyStored(ctx: AppContext, userId: number, key: string): Promise<string> {
  const file = await ctx.files.get(key);
  if (!file) throw new Error(`stored product ${key} vanished`);
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  const copy = `users/${userId}/projects/${randomUUID()}.${key.split('.').pop() ?? 'png'}`;
  await ctx.files.put(copy, Buffer.concat(chunks), file.contentType);
  return copy;
}

export async function listBatches(ctx: AppContext, userId: number): Promise<BatchSummary[]> {
  const batches = await batchesRepository.listByUser(ctx.db.kysely, userId);
  const rows = await batchesRepository.rowsOf(
    ctx.db.kysely,
    batches.map((b) => b.id),
  );
  const jobs = await jobsOf(ctx, userId, rows);
  return batches.map((b) => {
    const { id, name, status, created_at, valid_rows, total_price, progress } = toBatch(
      b,
      rows.filter((r) => r.batch_id === b.id),
      jobs,
    );
    return { id, name, status, created_at, valid_rows, total_price, progress };
  });
}

/** GET /batches/{id}: the rows with their errors, and once queued each row's job (the progress view). */
export async function getBatch(ctx: AppContext, userId: number, id: number): Promise<Batch> {
  const batch = await batchesRepository.findOwned(ctx.db.kysely, userId, id);
  if (!batch) throw batchNotFound();
  const rows = await batchesRepository.rowsOf(ctx.db.kysely, [batch.id]);
  return toBatch(batch, rows, await jobsOf(ctx, userId, rows));
}

/**
 * POST /batches/{id}/confirm: every valid row becomes a project with its catalogue actor holding the product at
 * the actor's hand, and one video job holding one video's credits. The projects, jobs, holds and the batch's
 * queued mark commit together: a short balance (402) or a second confirm (409) leaves nothing behind.
 */
export async function confirmBatch(ctx: AppContext, userId: number, id: number): Promise<Batch> {
  const batch = await batchesRepository.findOwned(ctx.db.kysely, userId, id);
  if (!batch) throw batchNotFound();
  if (batch.status !== 'draft') throw conflict(BATCH_MESSAGES.alreadyQueued);
  const rows = (await batchesRepository.rowsOf(ctx.db.kysely, [batch.id])).filter(isQueueable);
  if (rows.length === 0) throw unprocessable(BATCH_MESSAGES.nothingToQueue);
  const actors = await catalogueActors(ctx, userId);
  // Each row's project takes the brand kit's look; the row's own caption style and CTA then win.
  const style = await newStyleDefaults(ctx, userId);
  await submitJobs(ctx, userId, async (trx) => {
    if (!(await batchesRepository.markQueued(trx, batch.id, now()))) throw conflict(BATCH_MESSAGES.alreadyQueued);
    const price = toHundredths(PRICES.video) * rows.length;
    await assertCoversRequest(trx, ctx.db.dialect, userId, price, INSUFFICIENT_CREDITS.videos);
    const jobIds: number[] = [];
    for (const row of rows) {
      const v = BatchRowValues.parse(JSON.parse(row.batch_values));
      const actor = v.actor_id ? actors.get(v.actor_id) : undefined;
      if (!actor) throw unprocessable(`Line ${row.line}: ${BATCH_MESSAGES.actorUnknown(v.actor_name ?? '')}`);
      const name = `${batch.name} · Row ${row.line}`.slice(0, LIMITS.projectNameMax);
      const project = await projectsRepository.insert(trx, { userId, name, fileKey: row.product_key, style });
      await projectsRepository.update(trx, userId, project.id, {
        // The project render has no separate hook sticker: the hook is spoken as the script's opening line.
        script: v.hook ? `${v.hook} ${v.script}` : v.script,
        language: v.language,
        accent: v.accent,
        voice_id: v.voice_id,
        caption_style: v.caption_style,
        cta_text: v.cta,
        // The row's frame shape is exported beside the 9:16 master (extra shapes cost nothing, decision 136).
        aspects: rowAspects(v.aspect).join(','),
      });
      // The actor holds the product at its hand; the render cuts the product out itself (no merge step).
      await projectsRepository.setMergeState(trx, project.id, actor.id, {
        status: 'not_merged',
        maskPlacement: JSON.stringify(placementFor(actor, row)),
      });
      const jobId = await createJob(trx, renderProjectVideoJob, {
        userId,
        payload: { projectId: project.id, avatarId: actor.id, quality: 'draft', aspects: extraAspects(v.aspect) },
        projectName: name,
        projectId: project.id,
        labels: { actorName: actor.name, hookText: v.hook || null, variantLabel: `Row ${row.line}` },
        price: 'video',
        credits: PRICES.video,
        insufficientMessage: INSUFFICIENT_CREDITS.videos,
        batchId: batch.job_batch_id,
      });
      await batchesRepository.setRowQueued(trx, row.id, project.id, jobId);
      jobIds.push(jobId);
    }
    return { jobIds };
  });
  return getBatch(ctx, userId, batch.id);
}

export interface BatchZipPlan {
  fileName: string;
  entries: { key: string; name: string }[];
  manifest: string;
}

/** GET /batches/{id}/download: the finished videos, named by line and actor, and a manifest that joins back. */
export async function batchZipPlan(ctx: AppContext, userId: number, id: number): Promise<BatchZipPlan> {
  const batch = await getBatch(ctx, userId, id);
  const entries: BatchZipPlan['entries'] = [];
  const lines = [
    [
      'line',
      'product',
      'actor',
      'hook',
      'cta',
      'language',
      'accent',
      'aspect',
      'caption_style',
      'voice',
      'status',
      'file',
      'real_photo',
      'ai_label',
    ],
  ];
  // What each finished video recorded of itself (decision 201): real photo animated, AI label shown.
  const jobIds = batch.rows.flatMap((r) => (r.job ? [r.job.id] : []));
  const results = new Map(
    (await jobsRepository.findManyByIds(ctx.db.kysely, userId, jobIds)).map((j) => [j.id, j.result] as const),
  );
  for (const row of batch.rows) {
    const job = row.job;
    // The row's file is the video in the frame shape it asked for (the 9:16 master unless another was chosen).
    const url =
      row.values.aspect === DEFAULT_ASPECT
        ? job?.video_url
        : job?.aspects.find((a) => a.aspect === row.values.aspect)?.video_url;
    const key = url?.replace(/^static\//, '') ?? null;
    const base = `line-${String(row.line).padStart(3, '0')}`;
    const file = key
      ? videoFileName({
          base: row.values.aspect === DEFAULT_ASPECT ? base : `${base}-${aspectTag(row.values.aspect)}`,
          actor: row.values.actor_name,
        })
      : '';
    if (key) entries.push({ key, name: file });
    const v = row.values;
    const status =
      row.errors.length > 0 ? 'invalid' : (job?.status ?? (batch.status === 'queued' ? 'removed' : 'not queued'));
    lines.push([
      String(row.line),
      v.product,
      v.actor_name ?? '',
      v.hook,
      v.cta ?? '',
      v.language,
      v.accent,
      v.aspect,
      v.caption_style,
      v.voice_id ?? '',
      status,
      file,
      ...(key && job ? aiColumns(results.get(job.id) ?? null) : ['', '']),
    ]);
  }
  return {
    fileName: `${asciiSlug(batch.name) || 'batch'}.zip`,
    entries,
    manifest: lines.map((l) => l.map(csvCell).join(',')).join('\r\n') + '\r\n',
  };
}

/** A CSV cell, quoted when it must be; a leading formula character is defused for spreadsheets. */
function csvCell(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const extraAspects = (aspect: Aspect): Aspect[] => (aspect === DEFAULT_ASPECT ? [] : [aspect]);
const rowAspects = (aspect: Aspect): Aspect[] => [DEFAULT_ASPECT, ...extraAspects(aspect)];

const isQueueable = (r: BatchRowRecord) => r.product_key !== null && parseErrors(r.errors).length === 0;

function parseErrors(text: string): BatchCellError[] {
  const parsed = cellErrors.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : [];
}

type CatalogueAvatar = {
  id: number;
  name: string;
  x: number | null;
  y: number | null;
  width: number | null;
  height: number | null;
};

/** The catalogue's avatar rows by catalogue id ('1'..'12'), without those an admin removed. */
async function catalogueActors(ctx: AppContext, userId: number): Promise<Map<string, CatalogueAvatar>> {
  const out = new Map<string, CatalogueAvatar>();
  for (const row of await avatarsRepository.catalogueRows(ctx.db.kysely)) {
    if (row.deleted_at || !row.catalogue_actor_id) continue;
    const avatar = await avatarsRepository.findVisible(ctx.db.kysely, userId, row.id);
    if (avatar) out.set(row.catalogue_actor_id, { ...avatar, name: avatar.name ?? `Actor ${row.catalogue_actor_id}` });
  }
  // The owner's own creators, under the ids their rows were given when the sheet was read: one deleted since is
  // unknown and refuses the confirmation.
  for (const row of await avatarsRepository.listOwn(ctx.db.kysely, userId)) {
    out.set(creatorActorId(row.id), { ...row, name: row.name ?? 'Creator' });
  }
  return out;
}

/** Centred on the actor's hand (its saved product box), scaled so the product is as wide as that box. */
function placementFor(actor: CatalogueAvatar, row: BatchRowRecord): MaskPlacement {
  const width = actor.width ?? 120;
  const cx = (actor.x ?? 228) + width / 2;
  const cy = (actor.y ?? 560) + (actor.height ?? 150) / 2;
  const natural = row.product_width && row.product_width > 0 ? row.product_width : 1000;
  const scale = Math.min(CANVAS.productScaleMax, Math.max(CANVAS.productScaleMin, width / natural));
  return {
    position_x: Math.round(cx),
    position_y: Math.round(cy),
    scale: Math.round(scale * 1000) / 1000,
    rotation: 0,
  };
}

async function jobsOf(ctx: AppContext, userId: number, rows: BatchRowRecord[]): Promise<Map<number, Job>> {
  const ids = rows.map((r) => r.job_id).filter((j): j is number => j !== null);
  const found = await jobsRepository.findManyByIds(ctx.db.kysely, userId, ids);
  return new Map((await withEstimates(ctx, found)).map((j) => [j.id, j]));
}

function toBatch(batch: BatchRecord, rows: BatchRowRecord[], jobs: Map<number, Job>): Batch {
  const out: BatchRow[] = rows.map((r) => ({
    id: r.id,
    line: r.line,
    cells: BatchRow.shape.cells.parse(JSON.parse(r.cells)),
    values: BatchRowValues.parse(JSON.parse(r.batch_values)),
    product_url: r.product_key,
    errors: parseErrors(r.errors),
    project_id: r.project_id,
    job: r.job_id !== null ? (jobs.get(r.job_id) ?? null) : null,
  }));
  const valid = rows.filter(isQueueable).length;
  const queuedJobs = out.flatMap((r) => (r.job ? [r.job] : []));
  const count = (s: Job['status']) => queuedJobs.filter((j) => j.status === s).length;
  const finished = queuedJobs.filter((j) => j.status === 'completed' || j.status === 'failed').length;
  const percent =
    queuedJobs.length === 0
      ? 0
      : Math.round(
          queuedJobs.reduce(
            (sum, j) => sum + (j.status === 'queued' || j.status === 'in_progress' ? j.progress : 100),
            0,
          ) / queuedJobs.length,
        );
  return {
    id: batch.id,
    name: batch.name,
    status: batch.status === 'queued' ? 'queued' : 'draft',
    created_at: batch.created_at,
    errors: parseErrors(batch.errors),
    rows: out,
    valid_rows: valid,
    total_price: batchPrice(valid),
    progress: {
      queued: count('queued'),
      in_progress: count('in_progress'),
      completed: count('completed'),
      failed: count('failed'),
      percent: finished === queuedJobs.length && queuedJobs.length > 0 ? 100 : percent,
    },
    zip_url: count('completed') > 0 ? `batches/${batch.id}/download` : null,
  };
}
