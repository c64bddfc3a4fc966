import type { Avatar, AvatarWithStatus, Job, Project } from '@hookreel/contracts';
import { INSUFFICIENT_CREDITS, VALIDATION } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerBalances } from '../src/services/billing/credits.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { formData } from './helpers/images.ts';
import { call, createProductProject, drainCredits, productPhoto, waitFor } from './hook-helpers.ts';

const placement = { position_x: 300, position_y: 640, scale: 0.3, rotation: -8 };

describe('product in hand: merge and one video per actor', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let projectId: number;
  let actors: Avatar[];

  const mergeForm = (pid: number, avatarId: number, mask?: Buffer) =>
    formData([
      { name: 'project_id', value: String(pid) },
      { name: 'character_id', value: String(avatarId) },
      { name: 'mask_data', value: JSON.stringify(placement) },
      ...(mask ? [{ name: 'mask_file', file: mask, filename: 'mask.png', type: 'image/png' }] : []),
    ]);

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_POLL_MS: '100' } });
    await server.ctx.jobs.start();
    alice = await registerUser(server);
    bob = await registerUser(server);
    const created = await createProductProject(server, alice, 'Serum launch', 'serum.png');
    expect(created.status).toBe(200);
    projectId = created.json.id;
    actors = (await call(server, alice, 'GET', `/api/avatars/?project_id=${projectId}`)).json;
    expect(actors.length).toBeGreaterThanOrEqual(12);
  }, 120_000);
  afterAll(() => server?.close());

  it('merges the product into two actors, then renders one real video per actor', async () => {
    const chosen = actors.slice(0, 2).map((a) => a.id);
    expect(
      (await call(server, alice, 'POST', `/api/projects/${projectId}/selected-characters`, { character_ids: chosen }))
        .status,
    ).toBe(200);
    for (const id of chosen) {
      const res = await call(
        server,
        alice,
        'POST',
        '/api/merge/single',
        mergeForm(projectId, id, await productPhoto({ transparent: true })),
      );
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ job_id: expect.any(Number), status: 'merging' });
    }
    const states = await waitFor(
      async () => {
        const s: AvatarWithStatus[] = (await call(server, alice, 'GET', `/api/merge/avatars-with-status/${projectId}`))
          .json;
        return s.length === 2 && s.every((x) => x.status === 'merged' || x.status === 'failed') ? s : null;
      },
      90_000,
      'both merges',
    );
    // Re-Position one actor: its time left now comes from the two merges just measured.
    const again = await call(
      server,
      alice,
      'POST',
      '/api/merge/single',
      mergeForm(projectId, chosen[0]!, await productPhoto({ transparent: true })),
    );
    expect(again.status).toBe(200);
    const during: AvatarWithStatus[] = (await call(server, alice, 'GET', `/api/merge/avatars-with-status/${projectId}`))
      .json;
    const merging = during.find((s) => s.avatar_id === chosen[0]);
    expect(merging?.status).toBe('merging');
    expect(merging?.eta_seconds).toBeGreaterThan(0);
    expect(during.find((s) => s.avatar_id === chosen[1])?.eta_seconds).toBeNull();
    await waitFor(
      async () => {
        const s: AvatarWithStatus[] = (await call(server, alice, 'GET', `/api/merge/avatars-with-status/${projectId}`))
          .json;
        return s.every((x) => x.status === 'merged') ? s : null;
      },
      90_000,
      'the repositioned merge',
    );
    for (const s of states) {
      expect(s.status).toBe('merged');
      expect(s.eta_seconds).toBeNull();
      expect(s.placement).toEqual(placement);
      const img = await fetch(`${server.url}/api/static/${s.merged_url}`);
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/png');
    }

    // Generate needs a script.
    const noScript = await call(server, alice, 'POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`);
    expect(noScript.status).toBe(422);
    expect(noScript.json.detail).toBe(VALIDATION.scriptRequired);
    await call(server, alice, 'PUT', `/api/projects/${projectId}`, {
      script: 'This serum changed my mornings. Try it.',
    });

    const queued = await call(server, alice, 'POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`);
    expect(queued.status).toBe(200);
    expect(queued.json).toEqual({ total_jobs: 2 });
    const done = await waitFor(
      async () => {
        const jobs: Job[] = (await call(server, alice, 'GET', '/api/jobs/')).json;
        const mine = jobs.filter((j) => j.project_id === projectId);
        return mine.length === 2 && mine.every((j) => j.status === 'completed' || j.status === 'failed') ? mine : null;
      },
      180_000,
      'both videos',
    );
    for (const job of done) {
      expect(job.status, job.logs.join('\n')).toBe('completed');
      const video = await fetch(`${server.url}/api/${job.video_url}`);
      expect(video.headers.get('content-type')).toBe('video/mp4');
      const bytes = Buffer.from(await video.arrayBuffer());
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    }
    const b = await ledgerBalances(server.ctx.db.kysely, alice.id);
    expect(b.granted).toBe(b.available + b.held + b.consumed);
    expect(b.held).toBe(0);
  }, 300_000);

  it('needs sign-in for every merge call', async () => {
    for (const [method, p] of [
      ['POST', '/api/merge/single'],
      ['GET', `/api/merge/avatars-with-status/${projectId}`],
      ['POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`],
    ] as const) {
      const res = await fetch(`${server.url}${p}`, { method });
      expect(res.status, `${method} ${p}`).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it("another user's project is 404 on every merge call", async () => {
    const merge = await call(server, bob, 'POST', '/api/merge/single', mergeForm(projectId, actors[0]!.id));
    expect(merge.status).toBe(404);
    expect((await call(server, bob, 'GET', `/api/merge/avatars-with-status/${projectId}`)).status).toBe(404);
    expect((await call(server, bob, 'POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`)).status).toBe(404);
  });

  it('answers 402 with the documented message when credits are short, and reserves nothing', async () => {
    const carol = await registerUser(server);
    const p: Project = (
      await call(
        server,
        carol,
        'POST',
        '/api/projects/',
        formData([
          { name: 'name', value: 'Broke project' },
          { name: 'file', file: await productPhoto({ transparent: true }), filename: 'p.png', type: 'image/png' },
        ]),
      )
    ).json;
    await drainCredits(server, carol.id);
    const res = await call(server, carol, 'POST', '/api/merge/single', mergeForm(p.id, actors[0]!.id));
    expect(res.status).toBe(402);
    expect(res.json.detail).toBe(INSUFFICIENT_CREDITS.merge);
    const states: AvatarWithStatus[] = (await call(server, carol, 'GET', `/api/merge/avatars-with-status/${p.id}`))
      .json;
    expect(states).toEqual([]);
  });

  it('rejects a bad placement with a clear message', async () => {
    const form = formData([
      { name: 'project_id', value: String(projectId) },
      { name: 'character_id', value: String(actors[0]!.id) },
      { name: 'mask_data', value: '{"position_x": 1, "position_y": 2, "scale": 9, "rotation": 0}' },
    ]);
    const res = await call(server, alice, 'POST', '/api/merge/single', form);
    expect(res.status).toBe(422);
    expect(res.json.detail).toEqual(expect.any(String));
  });
});
