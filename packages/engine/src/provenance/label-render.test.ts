import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzePortrait } from '../photo/index.ts';
import { stopFaceDetector } from '../photo/face-worker.ts';
import { portraitFixture } from '../photo/fixtures.ts';
import { checkLayout } from '../layout/index.ts';
import { renderTalkingVideo, watermarkText } from '../pipeline.ts';
import { TRAINED_ALGORITHMIC_MEDIA, readProvenance } from './index.ts';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hookreel-ai-label-'));
});
afterAll(async () => {
  stopFaceDetector();
  await rm(dir, { recursive: true, force: true });
});

describe('the visible AI label', () => {
  it('shares the corner pill with the trial watermark', () => {
    expect(watermarkText({ watermark: false, brand: null })).toBeNull();
    expect(watermarkText({ watermark: false, brand: { aiLabel: true } })).toBe('AI-generated');
    expect(watermarkText({ watermark: true, brand: { aiLabel: true } })).toBe('AI-generated · Hookreel · Free trial');
    expect(watermarkText({ watermark: true, brand: { aiLabel: false } })).toBe('Hookreel · Free trial');
  });

  it('is drawn on a real photo that talks, and the MP4 says a real photo was animated', async () => {
    const photo = path.join(dir, 'portrait.png');
    await writeFile(photo, await portraitFixture('portrait'));
    const a = await analyzePortrait(photo);
    if (!a.ok) throw new Error(`portrait refused: ${a.reason}`);
    const out = await renderTalkingVideo({
      script: 'This serum changed my mornings.',
      language: 'english',
      accent: 'american',
      actor: { kind: 'photo', imagePath: photo, gender: 'male', face: a.face },
      watermark: false,
      brand: { aiLabel: true },
      provenance: { realPersonPhoto: true },
      workDir: path.join(dir, 'render'),
    });
    expect(out.layout.watermark?.lines.join(' ')).toBe('AI-generated');
    const read = await readProvenance(out.videoPath);
    expect(read).toMatchObject({
      digitalSourceType: TRAINED_ALGORITHMIC_MEDIA,
      software: 'Hookreel',
      realPersonPhoto: true,
    });
    const frame = path.join(dir, 'frame.png');
    await run('ffmpeg', ['-v', 'error', '-y', '-ss', '1', '-i', out.videoPath, '-frames:v', '1', frame]);
    if (process.env.KEEP_FRAME) await run('cp', [frame, process.env.KEEP_FRAME]);
    // The label sits in the safe zone, clear of face, captions and every other text.
    const violations = checkLayout(out.layout);
    expect(violations.outsideSafe).toEqual([]);
    expect(violations.overlaps).toEqual([]);
  }, 240_000);
});
