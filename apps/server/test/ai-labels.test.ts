import { BrandKit, DEFAULT_BRAND_KIT } from '@hookreel/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, insertUser, type InsertedUser } from './helpers/factories.ts';
import { recordingEngine, startServerRecordingRenders } from './helpers/recording-engine.ts';
import { requestApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

/**
 * The brand kit's AI label (decision 201): when videos show "AI-generated", kept per user, and what a render of
 * a drawn actor is told. Renders of real photos are covered with own creators (own-creators.test.ts).
 */
describe.each(TEST_DIALECTS)('AI labels (%s)', (dialect) => {
  let server: TestServer;
  const engine = recordingEngine();
  beforeAll(async () => {
    server = await startServerRecordingRenders(dialect, engine);
  });
  afterAll(() => server?.close());

  const call = (as: InsertedUser, method: string, path: string, body?: unknown) =>
    requestApi(server, as.headers, method, path, body);
  const kit = {
    primary_colour: '#e63946',
    secondary_colour: '#1D3557',
    caption_font: 'lato',
    caption_style: 'boxed',
    cta_text: null,
    outro: false,
  };
  const kitOf = async (res: Response) => {
    expect(res.status).toBe(200);
    return BrandKit.parse(await res.json());
  };

  it('labels real photos by default, can label every video or none, and keeps the mode when a client omits it', async () => {
    const u = await insertUser(server);
    expect(DEFAULT_BRAND_KIT.ai_label).toBe('real_photos');
    expect((await kitOf(await call(u, 'GET', '/brand-kit'))).ai_label).toBe('real_photos');
    expect((await kitOf(await call(u, 'PUT', '/brand-kit', { ...kit, ai_label: 'all' }))).ai_label).toBe('all');
    // A client from before the label saves the rest of the kit and leaves the mode alone.
    expect((await kitOf(await call(u, 'PUT', '/brand-kit', kit))).ai_label).toBe('all');
    expect((await kitOf(await call(u, 'PUT', '/brand-kit', { ...kit, ai_label: 'off' }))).ai_label).toBe('off');
    const bad = await call(u, 'PUT', '/brand-kit', { ...kit, ai_label: 'sometimes' });
    expect(bad.status).toBe(422);
    // Each user's own.
    const other = await insertUser(server);
    expect((await kitOf(await call(other, 'GET', '/brand-kit'))).ai_label).toBe('real_photos');
  });

  it('tells a render of a drawn actor to show the label only when the kit says every video', async () => {
    const u = await insertUser(server, { credits: 10 });
    const asUser = { authHeader: u.headers } as Parameters<typeof createProjectOverHttp>[1];
    const projectId = await createProjectOverHttp(server, asUser, 'Labels');
    const render = async () => {
      const queued = await call(u, 'POST', `/jobs/${projectId}/queue`);
      expect(queued.status).toBe(201);
      const { id } = (await queued.json()) as { id: number };
      const input = await waitFor(async () => engine.inputs.get(id));
      return { brand: input.style?.brand, realPerson: input.actor?.realPerson };
    };
    const byDefault = await render();
    expect(byDefault.brand?.aiLabel).toBe(false);
    expect(byDefault.realPerson ?? false).toBe(false);
    await kitOf(await call(u, 'PUT', '/brand-kit', { ...kit, ai_label: 'all' }));
    expect((await render()).brand?.aiLabel).toBe(true);
  });
});
