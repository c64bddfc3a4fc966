import { existsSync } from 'node:fs';
import { BrandKit, CAPTION_FONTS, DEFAULT_BRAND_KIT, type HookPack, type Project } from '@hookreel/contracts';
import type { BrandLook } from '@hookreel/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/app.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, insertUser, type InsertedUser } from './helpers/factories.ts';
import {
  formData,
  jpegImage,
  pngImage,
  storedFiles,
  svgWithScript,
  textPretendingToBePng,
  webpImage,
} from './helpers/images.ts';
import { recordingEngine, startServerRecordingRenders } from './helpers/recording-engine.ts';
import { requestApi } from './helpers/user-api.ts';
import { waitFor } from './helpers/wait.ts';

/** The brand kit over HTTP: the kit, its logo, new projects and packs taking it, and renders using it. */
describe.each(TEST_DIALECTS)('brand kit (%s)', (dialect) => {
  let server: TestServer;
  /** What each render was given as its brand look, and whether the logo was on disk at that moment. */
  const brands = new Map<number, { brand: BrandLook | null | undefined; logoBytes: number }>();
  const engine = recordingEngine({
    content: (input) => {
      const logo = input.style?.brand?.outroLogoPath;
      brands.set(input.jobId, { brand: input.style?.brand, logoBytes: logo && existsSync(logo) ? 1 : 0 });
      return `video of job ${input.jobId}`;
    },
  });
  beforeAll(async () => {
    server = await startServerRecordingRenders(dialect, engine);
  });
  afterAll(() => server?.close());

  const call = (as: InsertedUser, method: string, path: string, body?: unknown) =>
    requestApi(server, as.headers, method, path, body);
  const logoForm = (file: Buffer, filename = 'logo.png', type = 'image/png') =>
    formData([{ name: 'logo', file, filename, type }]);
  const kitOf = async (res: Response) => {
    expect(res.status).toBe(200);
    return BrandKit.parse(await res.json());
  };
  const asUser = (u: InsertedUser) => ({ authHeader: u.headers }) as Parameters<typeof createProjectOverHttp>[1];
  const fullKit = {
    primary_colour: '#e63946',
    secondary_colour: '#1D3557',
    caption_font: 'lato',
    caption_style: 'boxed',
    cta_text: '  Shop the drop  ',
    outro: false,
  };

  it('starts from the default kit and saves one, refusing what it cannot draw', async () => {
    const u = await insertUser(server);
    expect(await kitOf(await call(u, 'GET', '/brand-kit'))).toEqual(DEFAULT_BRAND_KIT);
    const saved = await kitOf(await call(u, 'PUT', '/brand-kit', fullKit));
    expect(saved).toMatchObject({
      primary_colour: '#E63946',
      secondary_colour: '#1D3557',
      caption_font: 'lato',
      caption_style: 'boxed',
      cta_text: 'Shop the drop',
      outro: false,
      logo_url: null,
    });
    expect(await kitOf(await call(u, 'GET', '/brand-kit'))).toEqual(saved);
    for (const bad of [
      { ...fullKit, primary_colour: 'red' },
      { ...fullKit, secondary_colour: '#12345' },
      { ...fullKit, primary_colour: '#GGGGGG' },
      { ...fullKit, caption_font: 'comic_sans' },
      { ...fullKit, caption_font: '../../etc/passwd' },
      { ...fullKit, caption_style: 'wobbly' },
      { ...fullKit, cta_text: 'x'.repeat(41) },
      { ...fullKit, outro: 'yes' },
      { ...fullKit, logo_url: 'static/users/1/x.png' },
    ]) {
      const res = await call(u, 'PUT', '/brand-kit', bad);
      expect(res.status, JSON.stringify(bad)).toBe(422);
    }
    // No logo yet: the outro card has nothing to show.
    const outro = await call(u, 'PUT', '/brand-kit', { ...fullKit, outro: true });
    expect(outro.status).toBe(422);
    expect(((await outro.json()) as { detail: string }).detail).toMatch(/logo/i);
    expect(await kitOf(await call(u, 'GET', '/brand-kit'))).toEqual(saved);
  });

  it('takes a PNG or WEBP logo checked like any upload, replaces and deletes it', async () => {
    const u = await insertUser(server);
    expect(
      (await call(u, 'PUT', '/brand-kit/logo', logoForm(await jpegImage(200, 100), 'l.jpg', 'image/jpeg'))).status,
    ).toBe(415);
    expect((await call(u, 'PUT', '/brand-kit/logo', logoForm(textPretendingToBePng()))).status).toBe(415);
    expect((await call(u, 'PUT', '/brand-kit/logo', logoForm(svgWithScript(), 'l.svg', 'image/svg+xml'))).status).toBe(
      415,
    );
    expect((await call(u, 'PUT', '/brand-kit/logo', logoForm(await pngImage(20, 20)))).status).toBe(422);
    expect((await kitOf(await call(u, 'GET', '/brand-kit'))).logo_url).toBeNull();

    const first = await kitOf(await call(u, 'PUT', '/brand-kit/logo', logoForm(await pngImage(300, 120))));
    expect(first.logo_url).toMatch(new RegExp(`^static/users/${u.id}/brand/[0-9a-f-]+\\.png$`));
    expect([first.logo_width, first.logo_height]).toEqual([300, 120]);
    const served = await fetch(`${server.url}/api/${first.logo_url}`, { headers: u.headers });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');

    const second = await kitOf(
      await call(u, 'PUT', '/brand-kit/logo', logoForm(await webpImage(240, 240), 'logo.webp', 'image/webp')),
    );
    expect(second.logo_url).toMatch(/\.webp$/);
    const files = (await storedFiles(server)).filter((f) => f.startsWith(`users/${u.id}/brand/`));
    expect(files).toEqual([second.logo_url!.replace(/^static\//, '')]);

    expect((await kitOf(await call(u, 'PUT', '/brand-kit', { ...fullKit, outro: true }))).outro).toBe(true);
    const cleared = await kitOf(await call(u, 'DELETE', '/brand-kit/logo'));
    expect([cleared.logo_url, cleared.outro]).toEqual([null, false]);
    expect((await storedFiles(server)).filter((f) => f.startsWith(`users/${u.id}/brand/`))).toEqual([]);
  });

  it('serves the caption fonts the engine draws with, and nothing else', async () => {
    for (const font of CAPTION_FONTS) {
      const res = await fetch(`${server.url}/api/brand-kit/fonts/${font}`);
      expect(res.status, font).toBe(200);
      expect(res.headers.get('content-type')).toBe('font/ttf');
      // TrueType files start with version 1.0.
      expect(Buffer.from(await res.arrayBuffer()).readUInt32BE(0)).toBe(0x00010000);
    }
    // A name that is not on the list is not found, whatever it tries.
    for (const bad of ['papyrus', '..%2F..%2Fetc%2Fpasswd', '..%2Flato']) {
      expect([404, 422]).toContain((await fetch(`${server.url}/api/brand-kit/fonts/${bad}`)).status);
    }
  });

  it("is each user's own: another user sees their own default kit, and no one signed out sees any", async () => {
    const owner = await insertUser(server);
    await kitOf(await call(owner, 'PUT', '/brand-kit', fullKit));
    const other = await insertUser(server);
    expect(await kitOf(await call(other, 'GET', '/brand-kit'))).toEqual(DEFAULT_BRAND_KIT);
    expect((await fetch(`${server.url}/api/brand-kit`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/brand-kit/logo`, { method: 'DELETE' })).status).toBe(401);
  });

  it('gives every new project and hook pack the kit, each can override it, and renders use it', async () => {
    const u = await insertUser(server, { credits: 10 });
    const before = await createProjectOverHttp(server, asUser(u), 'Before the kit');
    await kitOf(await call(u, 'PUT', '/brand-kit/logo', logoForm(await pngImage(300, 120))));
    await kitOf(await call(u, 'PUT', '/brand-kit', { ...fullKit, outro: true }));

    const old = (await (await call(u, 'GET', `/projects/${before}`)).json()) as Project;
    expect(old).toMatchObject({ caption_font: 'dejavu_sans', primary_colour: '#FFD23F', outro: false });

    const id = await createProjectOverHttp(server, asUser(u), 'With the kit');
    const project = (await (await call(u, 'GET', `/projects/${id}`)).json()) as Project;
    expect(project).toMatchObject({
      caption_style: 'boxed',
      cta_text: 'Shop the drop',
      caption_font: 'lato',
      primary_colour: '#E63946',
      secondary_colour: '#1D3557',
      outro: true,
    });
    const pack = (await (await call(u, 'POST', '/hooks', { name: 'Kit pack' })).json()) as HookPack;
    expect(pack).toMatchObject({
      caption_style: 'boxed',
      cta_text: 'Shop the drop',
      caption_font: 'lato',
      outro: true,
    });

    // Per project and per pack overrides, validated like the kit.
    const changed = await call(u, 'PUT', `/projects/${id}`, {
      caption_font: 'dejavu_serif',
      primary_colour: '#00aa55',
    });
    expect(await changed.json()).toMatchObject({ caption_font: 'dejavu_serif', primary_colour: '#00AA55' });
    expect((await call(u, 'PUT', `/projects/${id}`, { primary_colour: 'green' })).status).toBe(422);
    expect((await call(u, 'PUT', `/projects/${id}`, { caption_font: 'papyrus' })).status).toBe(422);
    const packChanged = await call(u, 'PUT', `/hooks/${pack.id}`, { outro: false, secondary_colour: '#ffffff' });
    expect(await packChanged.json()).toMatchObject({ outro: false, secondary_colour: '#FFFFFF', caption_font: 'lato' });
    // Someone else cannot change them.
    const stranger = await insertUser(server);
    expect((await call(stranger, 'PUT', `/projects/${id}`, { caption_font: 'lato' })).status).toBe(404);
    expect((await call(stranger, 'PUT', `/hooks/${pack.id}`, { outro: true })).status).toBe(404);

    // The render gets the project's look and the owner's logo on disk for the outro card.
    const queued = await call(u, 'POST', `/jobs/${id}/queue`);
    expect(queued.status).toBe(201);
    const { id: jobId } = (await queued.json()) as { id: number };
    const seen = await waitFor(async () => brands.get(jobId));
    expect(seen.brand).toMatchObject({ font: 'dejavu_serif', primary: '#00AA55', secondary: '#1D3557' });
    expect(seen.brand?.outroLogoPath).toMatch(/brand-logo\.png$/);
    expect(seen.logoBytes).toBe(1);

    // Without the outro (or once the logo is gone) the render gets no logo.
    await call(u, 'DELETE', '/brand-kit/logo');
    const again = (await (await call(u, 'POST', `/jobs/${id}/queue`)).json()) as { id: number };
    const second = await waitFor(async () => brands.get(again.id));
    expect(second.brand?.outroLogoPath ?? null).toBeNull();
    expect(second.brand?.font).toBe('dejavu_serif');
  });
});
