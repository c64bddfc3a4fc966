import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import {
  BATCH_COLUMNS,
  BATCH_LIMITS,
  BATCH_MESSAGES,
  INSUFFICIENT_CREDITS,
  PRICES,
  type Batch,
} from '@hookreel/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RenderProjectVideoInput } from '../src/media/port.ts';
import { grantCredits } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { pngImage } from './helpers/images.ts';
import { recordingEngine, type RecordingEngine } from './helpers/recording-engine.ts';
import {
  availableCredits,
  call,
  drainCredits,
  productPhoto,
  waitFor,
  zipEntry,
  zipEntryNames,
} from './hook-helpers.ts';

const HEADER = BATCH_COLUMNS.join(',');

/** A multipart body as `curl -F csv=… -F products=@file` sends it. */
function batchForm(csv: string, products: { name: string; bytes: Buffer }[] = [], name?: string): FormData {
  const form = new FormData();
  form.append('csv', csv);
  if (name) form.append('name', name);
  for (const p of products) form.append('products', new Blob([new Uint8Array(p.bytes)], { type: 'image/png' }), p.name);
  return form;
}

/**
 * Batch from a spreadsheet over HTTP (decision 138): rows checked with their line and column before anything is
 * spent, products fetched through the SSRF guard or attached, one video's credits held per row exactly once, the
 * batch followed on one progress endpoint and downloaded as a zip.
 */
describe.each(TEST_DIALECTS)('CSV batches (%s)', (dialect) => {
  let server: TestServer;
  let engine: RecordingEngine;
  let imageHost: Server;
  let hostOrigin: string;
  const rendered: RenderProjectVideoInput[] = [];

  beforeAll(async () => {
    const png = await productPhoto();
    imageHost = createServer((req, res) => {
      if (req.url === '/serum.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      else res.writeHead(404).end('not here');
    });
    await new Promise<void>((r) => imageHost.listen(0, '127.0.0.1', r));
    hostOrigin = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
    server = await startTestServer({ dialect });
    server.ctx.jobSettings = { ...server.ctx.jobSettings, pollMs: 50 };
    // Fast stand-ins for the cut-out and the render; what the render was asked to draw is kept for the checks.
    engine = recordingEngine({
      content: (input) => {
        rendered.push(input);
        return `video of job ${input.jobId}`;
      },
    });
    server.ctx.media = {
      ...engine,
      async cutoutProduct({ productPath, outDir }) {
        await mkdir(outDir, { recursive: true });
        const cutoutPath = path.join(outDir, 'cutout.png');
        await sharp(productPath).ensureAlpha().png().toFile(cutoutPath);
        return {
          cutoutPath,
          maskPath: cutoutPath,
          shape: null,
          category: null,
          check: { verdict: 'clean' as const, fixed: [], reasons: [] },
        };
      },
    };
    await server.ctx.jobs.start();
  });
  afterEach(() => {
    server.ctx.remoteImageFetch = undefined;
  });
  afterAll(async () => {
    engine?.releaseAll();
    await server?.close();
    await new Promise((r) => imageHost?.close(r));
  });

  const fund = (user: TestUser, credits: number) =>
    server.ctx.db.kysely.transaction().execute((trx) => grantCredits(trx, user.id, credits * 100, 'test top-up'));
  const createBatch = (user: TestUser, form: FormData) => call(server, user, 'POST', '/api/batches', form);
  const confirm = (user: TestUser, id: number, key?: string) =>
    fetch(`${server.url}/api/batches/${id}/confirm`, {
      method: 'POST',
      headers: { ...user.authHeader, ...(key ? { 'idempotency-key': key } : {}) },
    });

  it('serves the template with every column and two example rows, to anyone', async () => {
    const res = await fetch(`${server.url}/api/batches/template.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('hookreel-batch-template.csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(3);
  });

  it('reports every bad cell by line and column, prices only the valid rows and spends nothing', async () => {
    const user = await registerUser(server);
    const before = await availableCredits(server, user.id);
    const csv = [
      HEADER,
      // Line 2: valid, an attached product.
      'serum.png,Actor 2,Stop scrolling,Two drops and I glow all day.,Shop now,spanish,neutral,4:5,boxed',
      // Lines 3-4: one record whose quoted script spans two lines; its actor and caption style are wrong.
      'serum.png,Actor 99,,"First line,\nsecond line",,english,british,9:16,sparkles',
      // Line 5: a call to action over the limit, an unknown language, aspect and accent.
      `serum.png,3,,Hello,${'x'.repeat(41)},klingon,martian,16:9,pop`,
      // Line 6: no product, no script.
      ',1,,,,,,,',
      // Line 7: a product nobody attached.
      'missing.png,1,,Hello there,,,,,',
    ].join('\n');
    const res = await createBatch(user, batchForm(csv, [{ name: 'serum.png', bytes: await pngImage(200, 300) }]));
    expect(res.status).toBe(201);
    const batch = res.json as Batch;
    expect(batch.status).toBe('draft');
    expect(batch.rows.map((r) => r.line)).toEqual([2, 3, 5, 6, 7]);
    const errorsOf = (line: number) =>
      batch.rows.find((r) => r.line === line)!.errors.map((e) => [e.line, e.column, e.message]);
    expect(errorsOf(2)).toEqual([]);
    expect(errorsOf(3)).toEqual([
      [3, 'actor', BATCH_MESSAGES.actorUnknown('Actor 99')],
      [3, 'caption_style', BATCH_MESSAGES.captionStyleUnknown('sparkles')],
    ]);
    expect(errorsOf(5).map(([, column]) => column)).toEqual(['cta', 'language', 'accent', 'aspect']);
    expect(errorsOf(6).map(([, column]) => column)).toEqual(['product', 'script']);
    expect(errorsOf(7)).toEqual([[7, 'product', BATCH_MESSAGES.productNotAttached('missing.png')]]);
    const ok = batch.rows[0]!;
    expect(ok.values).toMatchObject({
      actor_id: '2',
      language: 'spanish',
      accent: 'neutral',
      aspect: '4:5',
      caption_style: 'boxed',
      cta: 'Shop now',
    });
    expect(ok.product_url).toMatch(new RegExp(`^users/${user.id}/`));
    expect(batch.valid_rows).toBe(1);
    expect(batch.total_price).toBe(PRICES.video);
    expect(await availableCredits(server, user.id)).toBe(before);
    expect((await call(server, user, 'GET', '/api/jobs/')).json).toEqual([]);
  });

  it('refuses a sheet it cannot read as a whole with the line, and caps the rows on the server', async () => {
    const user = await registerUser(server);
    const noScript = await createBatch(user, batchForm('product,actor\nhttps://example.com/a.png,1\n'));
    expect(noScript).toMatchObject({
      status: 422,
      json: { detail: `Line 1: ${BATCH_MESSAGES.missingColumn('script')}` },
    });
    const rows = Array.from({ length: BATCH_LIMITS.rowsMax + 1 }, (_, i) => `p.png,1,,Script ${i},,,,,`);
    const tooMany = await createBatch(user, batchForm([HEADER, ...rows].join('\n')));
    expect(tooMany).toMatchObject({
      status: 422,
      json: { detail: `Line ${BATCH_LIMITS.rowsMax + 2}: ${BATCH_MESSAGES.tooManyRows}` },
    });
    const empty = await createBatch(user, batchForm(`${HEADER}\n`));
    expect(empty.status).toBe(422);
    expect((await call(server, user, 'GET', '/api/batches')).json).toEqual([]);
  });

  it('fetches public image addresses through the SSRF guard and refuses private ones in the product cell', async () => {
    const user = await registerUser(server);
    server.ctx.remoteImageFetch = { testOnlyAllowedOrigins: [hostOrigin] };
    const csv = [
      HEADER,
      `${hostOrigin}/serum.png,1,,Fetched from a public host.,,,,,`,
      'http://127.0.0.2/admin.png,1,,Loopback.,,,,,',
      'http://169.254.169.254/latest/meta-data/,1,,Cloud metadata.,,,,,',
      'http://10.1.2.3/p.png,1,,Private network.,,,,,',
      `${hostOrigin}/nothing.png,1,,A missing image.,,,,,`,
    ].join('\n');
    const res = await createBatch(user, batchForm(csv));
    expect(res.status).toBe(201);
    const batch = res.json as Batch;
    expect(batch.rows[0]!.errors).toEqual([]);
    expect(batch.rows[0]!.product_url).toMatch(new RegExp(`^users/${user.id}/remote-images/`));
    for (const row of batch.rows.slice(1)) {
      expect(row.errors).toHaveLength(1);
      expect(row.errors[0]).toMatchObject({ line: row.line, column: 'product' });
      expect(row.product_url).toBeNull();
    }
    expect(batch.rows[1]!.errors[0]!.message).toMatch(/not allowed|public/i);
    expect(batch.rows[4]!.errors[0]!.message).toContain('HTTP 404');
    expect(batch.valid_rows).toBe(1);
  });

  it('keeps each batch to its owner', async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    await fund(owner, 10);
    const csv = `${HEADER}\nserum.png,1,,Mine only.,,,,,\n`;
    const { json } = await createBatch(owner, batchForm(csv, [{ name: 'serum.png', bytes: await pngImage() }]));
    const id = (json as Batch).id;
    const strangerFunds = await availableCredits(server, stranger.id);
    expect((await call(server, stranger, 'GET', `/api/batches/${id}`)).status).toBe(404);
    expect((await confirm(stranger, id)).status).toBe(404);
    expect((await call(server, stranger, 'GET', `/api/batches/${id}/download`)).status).toBe(404);
    expect((await call(server, stranger, 'GET', '/api/batches')).json).toEqual([]);
    expect((await fetch(`${server.url}/api/batches/${id}`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/batches`, { method: 'POST', body: batchForm(csv) })).status).toBe(401);
    expect(await availableCredits(server, stranger.id)).toBe(strangerFunds);
    expect((await call(server, owner, 'GET', `/api/batches/${id}`)).json).toMatchObject({ id, status: 'draft' });
  });

  it('holds one video per valid row once, however often confirm is clicked, and refuses a short balance whole', async () => {
    const user = await registerUser(server);
    await drainCredits(server, user.id);
    const csv = [
      HEADER,
      'a.png,1,Hook one,Script one.,Shop now,,,,',
      'a.png,2,,Script two.,,,,1:1,pop',
      'b.png,3,,Script three.,,,,,lower third',
      'b.png,Actor 42,,Broken row.,,,,,',
    ].join('\n');
    const files = [
      { name: 'a.png', bytes: await pngImage(120, 160) },
      { name: 'b.png', bytes: await pngImage(90, 90) },
    ];
    const batch = (await createBatch(user, batchForm(csv, files, 'Spring tests'))).json as Batch;
    expect(batch.valid_rows).toBe(3);
    expect(batch.total_price).toBe(3 * PRICES.video);

    // Two credits for three videos: 402 for the whole batch, nothing queued, still a draft.
    await fund(user, 2);
    const short = await confirm(user, batch.id, 'short');
    expect(short.status).toBe(402);
    // The 402 names the whole batch's price and shortfall (decision 197), not one video's.
    expect(await short.json()).toEqual({
      detail: INSUFFICIENT_CREDITS.videos,
      required: 3 * PRICES.video,
      available: 2,
      missing: 1,
    });
    expect((await call(server, user, 'GET', `/api/batches/${batch.id}`)).json).toMatchObject({ status: 'draft' });
    expect((await call(server, user, 'GET', '/api/projects/')).json).toEqual([]);

    await fund(user, 8);
    const before = await availableCredits(server, user.id);
    const [first, second] = await Promise.all([confirm(user, batch.id, 'click-1'), confirm(user, batch.id, 'click-1')]);
    const statuses = [first.status, second.status].sort();
    // Same key at once: one runs, the other is answered from it (or told it is in flight).
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    const replay = await confirm(user, batch.id, 'click-1');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const otherKey = await confirm(user, batch.id, 'click-2');
    expect(otherKey.status).toBe(409);
    expect(((await otherKey.json()) as { detail: string }).detail).toBe(BATCH_MESSAGES.alreadyQueued);
    // Balances are kept in hundredths of a credit.
    expect(await availableCredits(server, user.id)).toBe(before - 3 * PRICES.video * 100);

    const queued = (await replay.json()) as Batch;
    expect(queued.status).toBe('queued');
    const jobs = queued.rows.map((r) => r.job);
    expect(jobs.filter(Boolean)).toHaveLength(3);
    expect(queued.rows[3]!.job).toBeNull();
    const projects = (await call(server, user, 'GET', '/api/projects/')).json as Array<{
      name: string;
      script: string;
      caption_style: string;
      cta_text: string | null;
    }>;
    expect(projects).toHaveLength(3);
    const row2 = projects.find((p) => p.name === 'Spring tests · Row 2')!;
    expect(row2).toMatchObject({ script: 'Hook one Script one.', cta_text: 'Shop now', caption_style: 'highlight' });
    expect(projects.find((p) => p.name === 'Spring tests · Row 4')!.caption_style).toBe('lower_third');
  });

  it('follows the batch on one endpoint until every video is done, then downloads them with a manifest', async () => {
    const user = await registerUser(server);
    await fund(user, 10);
    const csv = [
      HEADER,
      'p.png,Actor 5,Wait for it,Watch this.,Try it,,,,,Alan',
      'p.png,6,,And this one.,,,,1:1,',
    ].join('\n');
    const batch = (await createBatch(user, batchForm(csv, [{ name: 'p.png', bytes: await productPhoto() }])))
      .json as Batch;
    expect(batch.zip_url).toBeNull();
    expect((await confirm(user, batch.id, `go-${batch.id}`)).status).toBe(200);
    const done = await waitFor(
      async () => {
        const b = (await call(server, user, 'GET', `/api/batches/${batch.id}`)).json as Batch;
        return b.progress.completed + b.progress.failed === 2 ? b : null;
      },
      30_000,
      'both videos of the batch to finish',
    );
    expect(done.progress).toMatchObject({ completed: 2, failed: 0, queued: 0, in_progress: 0, percent: 100 });
    expect(done.rows.every((r) => r.job?.status === 'completed' && r.job.download_url)).toBe(true);
    expect(done.rows[0]!.job).toMatchObject({
      actor_name: 'Actor 5',
      hook_text: 'Wait for it',
      variant_label: 'Row 2',
    });

    // Each render drew the catalogue actor holding the product cut out of the row's own image.
    const mine = rendered.filter((r) => done.rows.some((row) => row.job?.id === r.jobId));
    expect(mine).toHaveLength(2);
    for (const input of mine) {
      const actor = input.actor as { rig?: { product: { placement: { scale: number } } | null } };
      expect(actor.rig?.product?.placement.scale).toBeGreaterThan(0);
    }

    expect(done.zip_url).toBe(`batches/${batch.id}/download`);
    const zip = await fetch(`${server.url}/api/${done.zip_url}`, { headers: user.authHeader });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    // Row 3 asked for a square video: its file is the 1:1 export, named with the shape.
    expect(zipEntryNames(bytes).sort()).toEqual(['line-002-actor-5.mp4', 'line-003-1x1-actor-6.mp4', 'manifest.csv']);
    const manifest = zipEntry(bytes, 'manifest.csv').toString('utf8').trim().split('\r\n');
    expect(manifest[0]).toBe(
      'line,product,actor,hook,cta,language,accent,aspect,caption_style,voice,status,file,real_photo,ai_label',
    );
    // Catalogue actors are drawn: no real photo animated, and the kit's default labels only real photos.
    expect(manifest[1]).toBe(
      '2,p.png,Actor 5,Wait for it,Try it,english,american,9:16,highlight,flite:awb,completed,line-002-actor-5.mp4,no,no',
    );
    expect(manifest[2]).toMatch(/,1:1,highlight,,completed,line-003-1x1-actor-6\.mp4,no,no$/);
    expect(zipEntry(bytes, 'line-003-1x1-actor-6.mp4').toString()).toMatch(/^video of job \d+ in 1:1$/);
    expect(mine.map((r) => r.style?.aspects ?? []).sort()).toEqual([[], ['1:1']]);
    // Row 2 named its voice ("Alan", an English voice); row 3 left it to the best voice for its actor.
    expect(mine.map((r) => r.project.voiceId ?? 'best').sort()).toEqual(['best', 'flite:awb']);
  });

  it('runs the docs/api.md walk-through with a personal API key', async () => {
    const user = await registerUser(server);
    await fund(user, 10);
    const created = await call(server, user, 'POST', '/api/api-keys', { name: 'batch script' });
    expect(created.status).toBe(201);
    const key = { authorization: `Bearer ${created.json.key as string}` };
    const asKey = { authHeader: key };

    // 1. The template, filled in: one row with an attached product.
    const template = await (await fetch(`${server.url}/api/batches/template.csv`)).text();
    const csv = `${template.split('\r\n')[0]}\r\nserum.png,Actor 3,POV: found it,My skin drinks it in.,Shop now,english,british,1:1,pop\r\n`;
    // 2. Check it (nothing spent), then confirm with an Idempotency-Key.
    const draft = await call(
      server,
      asKey,
      'POST',
      '/api/batches',
      batchForm(csv, [{ name: 'serum.png', bytes: await productPhoto() }], 'Glow Serum CSV'),
    );
    expect(draft.status).toBe(201);
    expect(draft.json).toMatchObject({ valid_rows: 1, total_price: PRICES.video, errors: [] });
    const id = draft.json.id as number;
    const go = await fetch(`${server.url}/api/batches/${id}/confirm`, {
      method: 'POST',
      headers: { ...key, 'idempotency-key': `batch-${id}` },
    });
    expect(go.status).toBe(200);
    // 3. Poll until nothing waits or renders.
    const done = await waitFor(
      async () => {
        const b = (await call(server, asKey, 'GET', `/api/batches/${id}`)).json as Batch;
        return b.progress.queued + b.progress.in_progress === 0 ? b : null;
      },
      30_000,
      'the walk-through batch to finish',
    );
    expect(done.progress.completed).toBe(1);
    // 4. The zip, and a single video by its download_url.
    const zip = await fetch(`${server.url}/api/batches/${id}/download`, { headers: key });
    expect(zip.status).toBe(200);
    expect(zipEntryNames(Buffer.from(await zip.arrayBuffer()))).toContain('manifest.csv');
    const one = await fetch(`${server.url}/api/${done.rows[0]!.job!.download_url!}`, { headers: key });
    expect(one.status).toBe(200);
    expect(one.headers.get('content-disposition')).toContain('.mp4');
    const listed = (await call(server, asKey, 'GET', '/api/batches')).json as Array<{ id: number; status: string }>;
    expect(listed).toEqual([expect.objectContaining({ id, status: 'queued' })]);
  });
});
