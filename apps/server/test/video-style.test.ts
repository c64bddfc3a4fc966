import type { HookPack, Job, Project } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { qualityOfResult, storeQuality } from '../src/services/video/quality.ts';
import { sniffAudioType } from '../src/services/video/music-file.ts';
import { encodedTone, wavTone } from './helpers/audio.ts';
import { serverForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { formData, pngImage } from './helpers/images.ts';
import { requestApi } from './helpers/user-api.ts';

/** Caption style, end card CTA and music bed of projects and hook packs (docs/video-design.md). */
describe.each(TEST_DIALECTS)('video style (%s)', (dialect) => {
  const t = serverForBlock(dialect);

  const call = (method: string, path: string, body?: unknown, as: TestUser = t.user) =>
    requestApi(t.server, as.authHeader, method, path, body);
  const music = (file: Buffer, filename = 'bed.wav', type = 'audio/wav') =>
    formData([{ name: 'music', file, filename, type }]);

  it("keeps a project's caption style and CTA, defaulting to word highlight and no end card", async () => {
    const id = await createProjectOverHttp(t.server, t.user, 'Styled project');
    const fresh = (await (await call('GET', `/projects/${id}`)).json()) as Project;
    expect([fresh.caption_style, fresh.cta_text, fresh.music_url]).toEqual(['highlight', null, null]);
    const res = await call('PUT', `/projects/${id}`, { caption_style: 'pop', cta_text: '  Shop now  ' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ caption_style: 'pop', cta_text: 'Shop now' });
    expect((await call('PUT', `/projects/${id}`, { cta_text: '' })).status).toBe(200);
    expect(((await (await call('GET', `/projects/${id}`)).json()) as Project).cta_text).toBeNull();
    expect((await call('PUT', `/projects/${id}`, { caption_style: 'comic-sans' })).status).toBe(422);
    expect((await call('PUT', `/projects/${id}`, { cta_text: 'x'.repeat(41) })).status).toBe(422);
    expect(((await (await call('GET', `/projects/${id}`)).json()) as Project).caption_style).toBe('pop');
  });

  it('keeps Draft or Realistic and the voice speed of a project and a pack, Draft at 1x by default', async () => {
    const id = await createProjectOverHttp(t.server, t.user, 'Quality project');
    const fresh = (await (await call('GET', `/projects/${id}`)).json()) as Project;
    expect([fresh.quality, fresh.voice_speed]).toEqual(['draft', 1]);
    const res = await call('PUT', `/projects/${id}`, { quality: 'realistic', voice_speed: 0.85 });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ quality: 'realistic', voice_speed: 0.85 });
    for (const bad of [{ voice_speed: 1.5 }, { voice_speed: 0.5 }, { quality: 'cinematic' }]) {
      expect((await call('PUT', `/projects/${id}`, bad)).status).toBe(422);
    }
    expect(((await (await call('GET', `/projects/${id}`)).json()) as Project).voice_speed).toBe(0.85);
    const pack = (await (await call('POST', '/hooks', { name: 'Quality pack' })).json()) as HookPack;
    expect([pack.quality, pack.voice_speed]).toEqual(['draft', 1]);
    const put = await call('PUT', `/hooks/${pack.id}`, { quality: 'realistic', voice_speed: 1.2 });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ quality: 'realistic', voice_speed: 1.2 });
  });

  it("keeps a hook pack's caption style and CTA", async () => {
    const pack = (await (await call('POST', '/hooks', { name: 'Styled pack' })).json()) as HookPack;
    expect(pack.caption_style).toBe('highlight');
    const res = await call('PUT', `/hooks/${pack.id}`, { caption_style: 'lower_third', cta_text: 'Link in bio' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ caption_style: 'lower_third', cta_text: 'Link in bio' });
  });

  it('takes a music bed checked by its bytes and ffprobe, re-encoded, and removes it again', async () => {
    const id = await createProjectOverHttp(t.server, t.user, 'Music project');
    const res = await call('PUT', `/projects/${id}/music`, music(wavTone(2)));
    expect(res.status).toBe(200);
    const project = (await res.json()) as Project;
    expect(project.music_url).toMatch(/^static\/users\/\d+\/projects\/music-[0-9a-f-]+\.m4a$/);
    const file = await fetch(`${t.server.url}/api/${project.music_url}`);
    expect(file.status).toBe(200);
    expect(sniffAudioType(Buffer.from(await file.arrayBuffer()))).toBe('m4a');

    // Replacing it removes the old file; deleting it removes the new one.
    const replaced = (await (await call('PUT', `/projects/${id}/music`, music(wavTone(1)))).json()) as Project;
    expect(replaced.music_url).not.toBe(project.music_url);
    expect((await fetch(`${t.server.url}/api/${project.music_url}`)).status).toBe(404);
    const cleared = (await (await call('DELETE', `/projects/${id}/music`)).json()) as Project;
    expect(cleared.music_url).toBeNull();
    expect((await fetch(`${t.server.url}/api/${replaced.music_url}`)).status).toBe(404);
  });

  it('takes MP3 and M4A music beds as well as WAV, each stored as M4A', async () => {
    const id = await createProjectOverHttp(t.server, t.user, 'Music formats');
    for (const [kind, type] of [
      ['mp3', 'audio/mpeg'],
      ['m4a', 'audio/mp4'],
    ] as const) {
      const file = encodedTone(kind, 2);
      expect(sniffAudioType(file)).toBe(kind);
      const res = await call('PUT', `/projects/${id}/music`, music(file, `bed.${kind}`, type));
      expect(res.status).toBe(200);
      const stored = ((await res.json()) as Project).music_url!;
      expect(stored).toMatch(/\.m4a$/);
      const played = await fetch(`${t.server.url}/api/${stored}`);
      expect(sniffAudioType(Buffer.from(await played.arrayBuffer()))).toBe('m4a');
    }
  });

  it("refuses what is not music, what is broken, what is too large, and other people's projects", async () => {
    const id = await createProjectOverHttp(t.server, t.user, 'Refusals');
    const png = await call('PUT', `/projects/${id}/music`, music(await pngImage(20, 20), 'song.mp3', 'audio/mpeg'));
    expect(png.status).toBe(415);
    expect(await png.json()).toEqual({ detail: 'Music must be an MP3, WAV or M4A file' });
    // The right magic bytes, then garbage: ffprobe cannot read it.
    const broken = Buffer.concat([wavTone(1).subarray(0, 12), Buffer.alloc(4000, 7)]);
    expect((await call('PUT', `/projects/${id}/music`, music(broken))).status).toBe(422);
    const huge = Buffer.concat([wavTone(1).subarray(0, 44), Buffer.alloc(20 * 1024 * 1024 + 10)]);
    const tooLarge = await call('PUT', `/projects/${id}/music`, music(huge));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ detail: 'Music files can be at most 20MB' });
    const other = await registerUser(t.server);
    expect((await call('PUT', `/projects/${id}/music`, music(wavTone(1)), other)).status).toBe(404);
    expect(((await (await call('GET', `/projects/${id}`)).json()) as Project).music_url).toBeNull();
  });

  it('takes a music bed for a hook pack', async () => {
    const pack = (await (await call('POST', '/hooks', { name: 'Pack with music' })).json()) as HookPack;
    const res = await call('PUT', `/hooks/${pack.id}/music`, music(wavTone(1)));
    expect(res.status).toBe(200);
    expect(((await res.json()) as HookPack).music_url).toMatch(/^static\/users\/\d+\/hook-packs\/music-/);
  });
});

describe('quality report of a job', () => {
  it('stores the report and contact sheet and shows the verdict on the job', async () => {
    const puts: string[] = [];
    const files = {
      putFile: async (key: string) => void puts.push(key),
    } as unknown as Parameters<typeof storeQuality>[0];
    const report = {
      version: 1 as const,
      width: 720,
      height: 1280,
      sar: '1:1',
      duration_sec: 3,
      integrated_lufs: -14.2,
      true_peak_dbtp: -1.4,
      sample_rate: 48000,
      channels: 2,
      av_drift_ms: 3,
      boxes: [],
      overlaps: [],
      safe_zone_violations: [],
      mouth: null,
      checks: [{ id: 'mouth', label: 'Mouth', level: 'warn' as const, detail: 'still' }],
    };
    const stored = await storeQuality(files, { report, contactSheetPath: '/tmp/x.jpg' }, (n) => `jobs/7/${n}`, '/tmp');
    expect(stored).toEqual({
      quality: 'warn',
      report_key: 'jobs/7/report.json',
      contact_sheet_key: 'jobs/7/contact-sheet.jpg',
    });
    expect(puts).toEqual(['jobs/7/report.json', 'jobs/7/contact-sheet.jpg']);
    const dto: Pick<Job, 'quality' | 'report_url' | 'contact_sheet_url'> = qualityOfResult(JSON.stringify(stored));
    expect(dto).toEqual({
      quality: 'warn',
      report_url: 'static/jobs/7/report.json',
      contact_sheet_url: 'static/jobs/7/contact-sheet.jpg',
    });
    expect(qualityOfResult(null)).toEqual({ quality: null, report_url: null, contact_sheet_url: null });
    expect(qualityOfResult('{"hook_pack_id":1}').quality).toBeNull();
  });
});
