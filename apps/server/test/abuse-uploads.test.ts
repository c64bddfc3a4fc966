import { readdir, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BATCH_COLUMNS, BATCH_LIMITS, BATCH_MESSAGES, MESSAGES, MUSIC_LIMITS, VALIDATION } from '@hookreel/contracts';
import { ffprobe } from '@hookreel/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodedAudioSec } from '../src/media/audio.ts';
import { MUSIC_MESSAGES } from '../src/services/video/index.ts';
import { VOICE_OVER_MESSAGES } from '../src/services/projects/voice.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { encodedTone, lyingMp3 } from './helpers/audio.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp, registerUser, type TestUser } from './helpers/factories.ts';
import { pngHeaderBomb, pngImage } from './helpers/images.ts';
import { call } from './hook-helpers.ts';

/**
 * Issue #33, CPU by audio uploads: voice-over and music skipped the per-user upload budget, and an audio file's
 * length was taken from its header, so an MP3 claiming 60 s but holding 2 h cost about two minutes of a core.
 */

const form = (field: string, data: Buffer, name: string, type: string, extra: Record<string, string> = {}) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(extra)) f.append(k, v);
  f.append(field, new Blob([new Uint8Array(data)], { type }), name);
  return f;
};

describe('bounded audio probe', () => {
  it('decodes at most the cap plus a second of a file that lies about its length', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-probe-'));
    try {
      const file = path.join(dir, 'lie.mp3');
      await writeFile(file, lyingMp3(60, 7200));
      // What the old check believed: the header's 60 s.
      expect(Number((await ffprobe(file)).format.duration)).toBeCloseTo(60, 0);
      const capped = await decodedAudioSec(file, 120);
      expect(capped).toBeGreaterThan(120);
      expect(capped).toBeLessThanOrEqual(121.5);
      const honest = path.join(dir, 'honest.mp3');
      await writeFile(honest, encodedTone('mp3', 2));
      expect(await decodedAudioSec(honest, 120)).toBeCloseTo(2, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each(TEST_DIALECTS)('abuse: uploads (%s)', (dialect) => {
  let server: TestServer;
  const mp3 = encodedTone('mp3', 2);

  beforeAll(async () => {
    server = await startTestServer({ dialect, env: { UPLOAD_RATE_LIMIT: '4' } });
  });
  afterAll(() => server?.close());

  const music = (user: TestUser, projectId: number, data = mp3) =>
    call(server, user, 'PUT', `/api/projects/${projectId}/music`, form('music', data, 'bed.mp3', 'audio/mpeg'));
  const voiceOver = (user: TestUser, projectId: number, data = mp3) =>
    call(
      server,
      user,
      'PUT',
      `/api/projects/${projectId}/voice-over`,
      form('voice_over', data, 'vo.mp3', 'audio/mpeg'),
    );

  it('voice-over and music count against the one upload budget shared with image uploads', async () => {
    const user = await registerUser(server);
    // Creating a project is an upload route too (with or without a photo): 1 and 2 of the budget of 4.
    const projectId = await createProjectOverHttp(server, user, 'Budget');
    const photo = await pngImage(64, 48);
    const created = await call(
      server,
      user,
      'POST',
      '/api/projects',
      form('file', photo, 'p.png', 'image/png', { name: 'With a photo' }),
    );
    expect(created.status).toBe(200);
    expect((await music(user, projectId)).status).toBe(200);
    expect((await voiceOver(user, projectId)).status).toBe(200);
    // Four used: the fifth upload, whatever its route, is refused before its body is read.
    for (const next of [() => music(user, projectId), () => voiceOver(user, projectId)]) {
      const res = await next();
      expect(res.status).toBe(429);
      expect(res.json).toEqual({ detail: MESSAGES.server.uploadRateLimited });
      expect(Number(res.res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The budget is per user.
    const other = await registerUser(server);
    const theirs = await createProjectOverHttp(server, other, 'Theirs');
    expect((await music(other, theirs)).status).toBe(200);
  });

  it('an MP3 that claims 60 s but holds 2 h is refused by the decoded length, checked in DATA_DIR/work', async () => {
    const lie = lyingMp3(60, 7200);
    const user = await registerUser(server);
    const projectId = await createProjectOverHttp(server, user, 'Liar');
    const musicRes = await music(user, projectId, lie);
    expect(musicRes.status).toBe(422);
    expect(musicRes.json).toEqual({ detail: MUSIC_MESSAGES.tooLong });
    expect(MUSIC_LIMITS.maxDurationSec).toBeLessThan(7200);

    const other = await registerUser(server);
    const theirs = await createProjectOverHttp(server, other, 'Liar 2');
    // 60 s is within a voice-over's 2 minutes: only the stream tells the truth.
    const voRes = await voiceOver(other, theirs, lie);
    expect(voRes.status).toBe(422);
    expect(voRes.json).toEqual({ detail: VOICE_OVER_MESSAGES.tooLong });
    // Nothing stored, nothing left behind in the work folder.
    const project = (await call(server, other, 'GET', `/api/projects/${theirs}`)).json as { voice_over: unknown };
    expect(project.voice_over).toBeNull();
    expect((await readdir(server.ctx.config.workDir).catch(() => [])).filter((n) => n.startsWith('upload-'))).toEqual(
      [],
    );
  }, 30_000);

  it('an honest upload is checked in a private DATA_DIR/work/upload-<uuid> folder that is gone afterwards', async () => {
    const user = await registerUser(server);
    const projectId = await createProjectOverHttp(server, user, 'Honest');
    const files = server.ctx.files;
    const seen: string[][] = [];
    // Storing happens inside the check: what the work folder holds then is where the check runs.
    server.ctx.files = Object.assign(Object.create(files) as typeof files, {
      put: async (...args: Parameters<typeof files.put>) => {
        seen.push(await readdir(server.ctx.config.workDir));
        return files.put(...args);
      },
    });
    try {
      expect((await music(user, projectId)).status).toBe(200);
    } finally {
      server.ctx.files = files;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]!.filter((n) => /^upload-[0-9a-f-]{36}$/.test(n))).toHaveLength(1);
    expect((await readdir(server.ctx.config.workDir)).filter((n) => n.startsWith('upload-'))).toEqual([]);
  });

  it('images keep their pixel cap before decoding (already in place; kept under this suite)', async () => {
    const user = await registerUser(server);
    const res = await call(
      server,
      user,
      'POST',
      '/api/projects',
      form('file', pngHeaderBomb(), 'bomb.png', 'image/png', { name: 'Bomb' }),
    );
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ detail: VALIDATION.imageTooLarge });
  });

  it('a CSV sheet over its cap is refused before any row is read or any image fetched (already in place)', async () => {
    const user = await registerUser(server);
    const row = `https://example.com/${'a'.repeat(200)}.png,1,,A script,,,,,`;
    const rows = Array.from({ length: Math.ceil(BATCH_LIMITS.csvMaxBytes / row.length) + 1 }, () => row);
    const sheet = new FormData();
    sheet.append('csv', [BATCH_COLUMNS.join(','), ...rows].join('\n'));
    const res = await call(server, user, 'POST', '/api/batches', sheet);
    // Pasted as a field it is cut off while the body is read (413); as a file, the sheet's own 256 KB cap (422).
    expect(res.status).toBe(413);
    const file = new FormData();
    file.append('csv', new Blob([[BATCH_COLUMNS.join(','), ...rows].join('\n')], { type: 'text/csv' }), 'big.csv');
    const asFile = await call(server, user, 'POST', '/api/batches', file);
    expect(asFile.status).toBe(422);
    expect(asFile.json).toEqual({ detail: `Line 1: ${BATCH_MESSAGES.tooLarge}` });
    expect((await call(server, user, 'GET', '/api/batches')).json).toEqual([]);
  });
});
