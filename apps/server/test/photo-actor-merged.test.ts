import { stat } from 'node:fs/promises';
import type { Avatar, AvatarWithStatus, Job } from '@hookreel/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderProjectVideoInput } from '../src/media/port.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { registerUser, uniqueEmail, type TestUser } from './helpers/factories.ts';
import { avatarUploadForm, formData } from './helpers/images.ts';
import { recordingEngine } from './helpers/recording-engine.ts';
import { call, createProductProject, waitFor } from './hook-helpers.ts';

/**
 * A photo actor merged with a product (Draft) is rendered from the merged 576x1024 still; its face points were
 * found on the uploaded photo, so the render job hands the media layer that photo too, to carry the points into
 * the still's frame (decision 184).
 */
describe('a merged photo actor keeps its face for the render', () => {
  let server: TestServer;
  let admin: TestUser;
  let user: TestUser;
  const adminEmail = uniqueEmail('admin');
  const handed: Array<{
    actor: RenderProjectVideoInput['actor'];
    stillWidth: number | null;
    sourceSize: [number, number] | null;
  }> = [];
  const engine = recordingEngine();
  engine.during = async (input) => {
    const src = input.actor?.faceSourcePath ?? null;
    const meta = src && (await stat(src)).isFile() ? await sharp(src).metadata() : null;
    const still = input.actor ? await sharp(input.actor.imagePath).metadata() : null;
    handed.push({
      actor: input.actor,
      stillWidth: still?.width ?? null,
      sourceSize: meta ? [meta.width!, meta.height!] : null,
    });
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIN_EMAILS: adminEmail, JOB_POLL_MS: '100' } });
    server.ctx.media = engine;
    await server.ctx.jobs.start();
    admin = await registerUser(server, { email: adminEmail });
    user = await registerUser(server);
  }, 120_000);
  afterAll(() => server?.close());

  it('passes the uploaded photo with its points when the still is a Draft merge', async () => {
    const uploaded = await call(
      server,
      admin,
      'POST',
      '/api/avatars/upload',
      await avatarUploadForm({ filename: 'Merged astronaut.png' }),
    );
    expect(uploaded.status).toBe(200);
    const [avatar] = uploaded.json as Avatar[];
    const created = await createProductProject(server, user, 'Photo actor merge', 'bottle.png');
    const projectId = created.json.id as number;
    await call(server, user, 'POST', `/api/projects/${projectId}/selected-characters`, { character_ids: [avatar!.id] });
    const merge = await call(
      server,
      user,
      'POST',
      '/api/merge/single',
      formData([
        { name: 'project_id', value: String(projectId) },
        { name: 'character_id', value: String(avatar!.id) },
        { name: 'mask_data', value: JSON.stringify({ position_x: 300, position_y: 820, scale: 0.3, rotation: 0 }) },
      ]),
    );
    expect(merge.status).toBe(200);
    await waitFor(
      async () => {
        const s: AvatarWithStatus[] = (await call(server, user, 'GET', `/api/merge/avatars-with-status/${projectId}`))
          .json;
        return s.length === 1 && s[0]!.status === 'merged' ? s : null;
      },
      90_000,
      'the merge',
    );
    await call(server, user, 'PUT', `/api/projects/${projectId}`, { script: 'This bottle keeps water cold. Try it.' });
    expect((await call(server, user, 'POST', `/api/jobs/product-in-hand/${projectId}/queue-videos`)).status).toBe(200);
    const [job] = await waitFor(
      async () => {
        const jobs: Job[] = (await call(server, user, 'GET', '/api/jobs/')).json;
        const mine = jobs.filter((j) => j.project_id === projectId && j.status === 'completed');
        return mine.length ? mine : null;
      },
      60_000,
      'the video',
    );
    expect(job).toBeDefined();
    const got = handed.at(-1)!;
    // The still is the merged frame; the face is the upload's, and the upload itself comes along.
    expect(got.stillWidth).toBe(576);
    expect(got.actor?.face?.points).toHaveLength(478);
    expect(got.sourceSize).toEqual([got.actor!.face!.imageSize.width, got.actor!.face!.imageSize.height]);
  }, 240_000);
});
