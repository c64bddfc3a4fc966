import type { Avatar, AvatarWithStatus, Job } from '@hookreel/contracts';
import { MESSAGES } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { formData } from './helpers/images.ts';
import { recordingEngine, type RecordingEngine } from './helpers/recording-engine.ts';
import { availableCredits, call, createProductProject, waitFor } from './hook-helpers.ts';

const placement = { position_x: 300, position_y: 640, scale: 0.3, rotation: -8 };

/**
 * A second browser tab repeats a product-in-hand spend with its own Idempotency-Key while the first one's job is
 * still waiting or running: the server refuses it (409, a message people understand) instead of charging twice.
 */
for (const dialect of TEST_DIALECTS) {
  describe(`product in hand from two tabs (${dialect})`, () => {
    let server: TestServer;
    let engine: RecordingEngine;
    let alice: TestUser;
    let projectId: number;
    let actor: Avatar;

    const spend = async (path: string, key: string, body?: FormData) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { ...alice.authHeader, 'idempotency-key': key },
        body,
      });
      return { status: res.status, json: (await res.json()) as { detail?: string; job_id?: number } };
    };
    const mergeForm = () =>
      formData([
        { name: 'project_id', value: String(projectId) },
        { name: 'character_id', value: String(actor.id) },
        { name: 'mask_data', value: JSON.stringify(placement) },
      ]);
    const mergeState = async (): Promise<AvatarWithStatus | undefined> =>
      ((await call(server, alice, 'GET', `/api/merge/avatars-with-status/${projectId}`)).json as AvatarWithStatus[])[0];
    const videoJobs = async (): Promise<Job[]> =>
      ((await call(server, alice, 'GET', '/api/jobs/')).json as Job[]).filter((j) => j.project_id === projectId);

    beforeAll(async () => {
      // The runner is not started yet: the first merge stays queued while the second tab tries again.
      server = await startTestServer({ dialect, env: { JOB_POLL_MS: '100' } });
      engine = recordingEngine();
      server.ctx.media = engine;
      alice = await registerUser(server);
      const created = await createProductProject(server, alice, 'Two tabs');
      projectId = created.json.id;
      actor = ((await call(server, alice, 'GET', `/api/avatars/?project_id=${projectId}`)).json as Avatar[])[0]!;
      await call(server, alice, 'POST', `/api/projects/${projectId}/selected-characters`, {
        character_ids: [actor.id],
      });
      await call(server, alice, 'PUT', `/api/projects/${projectId}`, { script: 'One tab is enough. Try it today.' });
    }, 120_000);
    afterAll(async () => {
      engine?.releaseAll();
      await server?.close();
    });

    it('a second merge of the same actor while the first is queued is 409 and charges nothing', async () => {
      const before = await availableCredits(server, alice.id);
      const first = await spend('/api/merge/single', 'tab-1-merge', mergeForm());
      expect(first.status).toBe(200);
      const second = await spend('/api/merge/single', 'tab-2-merge', mergeForm());
      expect(second.status).toBe(409);
      expect(second.json.detail).toBe(MESSAGES.server.mergeInProgress);
      // The first tab's retry with its own key is a replay, not a new merge.
      const retry = await spend('/api/merge/single', 'tab-1-merge', mergeForm());
      expect(retry).toEqual(first);
      // Credits are counted in hundredths: one merge (0.10) held, once.
      expect(await availableCredits(server, alice.id)).toBe(before - 10);
      expect((await mergeState())?.job_id).toBe(first.json.job_id);

      await server.ctx.jobs.start();
      await waitFor(async () => ((await mergeState())?.status === 'merged' ? true : null), 90_000, 'the merge');
      // Finished: placing the product again is a new intent, and allowed.
      const again = await spend('/api/merge/single', 'tab-2-merge-later', mergeForm());
      expect(again.status).toBe(200);
      await waitFor(async () => ((await mergeState())?.status === 'merged' ? true : null), 90_000, 'the re-merge');
    }, 200_000);

    it('queueing the videos again while they render is 409; once they are done it is a new order', async () => {
      engine.holdNext();
      const before = await availableCredits(server, alice.id);
      const first = await spend(`/api/jobs/product-in-hand/${projectId}/queue-videos`, 'tab-1-videos');
      expect(first).toEqual({ status: 200, json: { total_jobs: 1 } });
      await waitFor(async () => (engine.gates.size === 1 ? true : null), 30_000, 'the render to start');

      const second = await spend(`/api/jobs/product-in-hand/${projectId}/queue-videos`, 'tab-2-videos');
      expect(second.status).toBe(409);
      expect(second.json.detail).toBe(MESSAGES.server.projectVideosInProgress);
      expect(await availableCredits(server, alice.id)).toBe(before - 100);
      expect(await videoJobs()).toHaveLength(1);

      engine.releaseAll();
      await waitFor(
        async () => ((await videoJobs()).every((j) => j.status === 'completed') ? true : null),
        60_000,
        'the video',
      );
      const later = await spend(`/api/jobs/product-in-hand/${projectId}/queue-videos`, 'tab-2-videos-later');
      expect(later).toEqual({ status: 200, json: { total_jobs: 1 } });
      expect(await videoJobs()).toHaveLength(2);
    }, 120_000);
  });
}
