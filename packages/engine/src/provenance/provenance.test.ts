import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAINED_ALGORITHMIC_MEDIA, readProvenance, writeProvenance } from './index.ts';

const run = promisify(execFile);
let dir: string;

async function tinyMp4(name: string): Promise<string> {
  const out = path.join(dir, name);
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=160x284:d=0.5',
    '-f',
    'lavfi',
    '-i',
    'sine=d=0.5',
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    out,
  ]);
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'provenance-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('video provenance (XMP)', () => {
  it('writes and reads back the AI source type, software, date and the real-photo flag', async () => {
    const video = await tinyMp4('real.mp4');
    expect(await readProvenance(video)).toBeNull();
    await writeProvenance(video, { realPersonPhoto: true, createdAt: new Date('2026-12-01T21:00:00.000Z') });
    const read = await readProvenance(video);
    expect(read).toMatchObject({
      digitalSourceType: TRAINED_ALGORITHMIC_MEDIA,
      software: 'Hookreel',
      realPersonPhoto: true,
    });
    expect(read?.createdAt).toMatch(/^2026:12:01 21:00:00/);
    expect(read?.description).toContain("a real person's photo");
    // Still a playable MP4 of the same length.
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      video,
    ]);
    expect(Number(stdout)).toBeCloseTo(0.5, 1);
  });

  it('says no real photo was animated for a synthetic actor', async () => {
    const video = await tinyMp4('drawn.mp4');
    await writeProvenance(video, { realPersonPhoto: false });
    const read = await readProvenance(video);
    expect(read?.realPersonPhoto).toBe(false);
    expect(read?.keywords).toEqual(['ai-generated']);
    expect(read?.digitalSourceType).toBe(TRAINED_ALGORITHMIC_MEDIA);
  });
});
