import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhotoFace } from '@hookreel/contracts';
import { analyzePortrait, stopFaceDetector } from '../photo/index.ts';
import { portraitFixture } from '../photo/fixtures.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { hardFailures } from '../report/index.ts';
import { runProcess } from '../util/process.ts';
import { delaunay, warpTriangles } from './mesh.ts';
import { MOUTH_SHAPES } from './face.ts';
import { MOUTH_LEAD_SEC, photoTimeline, photoVisemesOfWord, voiceLoudness } from './timeline.ts';
import { photoActor } from './index.ts';

describe('mesh warp', () => {
  it('triangulates a grid into two triangles a cell', () => {
    const xy: number[] = [];
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) xy.push(x * 10 + (y % 2) * 0.01, y * 10);
    expect(delaunay(Float64Array.from(xy)).length / 3).toBe(18);
  });

  it('leaves the picture as it is when no point moves, and moves pixels with their triangle', () => {
    const w = 20;
    const src = new Uint8Array(w * w * 4).map((_, i) => (i * 7) % 251);
    const pts = Float64Array.from([0, 0, 19, 0, 0, 19, 19, 19, 10, 10]);
    const tris = delaunay(pts);
    const same = new Uint8Array(src);
    warpTriangles(src, same, w, w, tris, pts, pts);
    expect(same).toEqual(src);
    const moved = Float64Array.from(pts);
    moved[8] = 12;
    const out = new Uint8Array(src);
    warpTriangles(src, out, w, w, tris, pts, moved);
    expect(out).not.toEqual(src);
    // The frame's edge is held: its pixels are untouched.
    for (let x = 0; x < w; x++) expect(out[x * 4]).toBe(src[x * 4]);
  });
});

describe('photo performance', () => {
  const words = [
    { word: 'Stop', startSec: 0.3, endSec: 0.6 },
    { word: 'scrolling.', startSec: 0.62, endSec: 1.2 },
    { word: 'Feel', startSec: 2.0, endSec: 2.3 },
    { word: 'the', startSec: 2.3, endSec: 2.4 },
    { word: 'difference', startSec: 2.4, endSec: 3.0 },
    { word: 'with', startSec: 3.0, endSec: 3.2 },
    { word: 'our', startSec: 3.2, endSec: 3.4 },
    { word: 'juice', startSec: 3.4, endSec: 3.8 },
    { word: 'today!', startSec: 3.8, endSec: 4.4 },
  ];

  it('reads mouth shapes from the words', () => {
    expect(photoVisemesOfWord('feel')).toEqual(['fv', 'ee', 'th']);
    expect(photoVisemesOfWord('mob')[0]).toBe('rest');
    expect(photoVisemesOfWord('123').length).toBeGreaterThan(0);
  });

  it('uses at least 8 mouth shapes, leads the voice, closes in silences, blinks and sways', () => {
    const segs = photoTimeline({ words, totalSec: 6, seed: 'x' });
    const at = (t: number) => segs.find((s) => t >= s.startSec - 1e-9 && t < s.startSec + s.durationSec - 1e-9)!.state;
    expect(new Set(segs.map((s) => s.state.mouth)).size).toBeGreaterThanOrEqual(8);
    // Silence between 1.3 s and 1.9 s, and after the last word.
    expect(at(1.6).mouth).toBe('rest');
    expect(at(5.5).mouth).toBe('rest');
    // The mouth is moving before "Stop" is heard.
    expect(at(0.3 - MOUTH_LEAD_SEC + 0.04).mouth).not.toBe('rest');
    expect(segs.some((s) => s.state.eyes === 'closed')).toBe(true);
    expect(new Set(segs.map((s) => s.state.head.tilt)).size).toBeGreaterThan(2);
    const total = segs.reduce((a, s) => a + s.durationSec, 0);
    expect(total).toBeCloseTo(6, 2);
  });
});

describe('the mouth and the voice', () => {
  const words = [
    { word: 'Stop', startSec: 0.3, endSec: 0.6 },
    { word: 'scrolling.', startSec: 0.62, endSec: 1.2 },
    { word: 'difference', startSec: 2.4, endSec: 3.0 },
  ];
  const opening = (segs: ReturnType<typeof photoTimeline>, from: number, to: number) =>
    segs
      .filter((s) => s.startSec >= from && s.startSec < to)
      .reduce((a, s) => a + MOUTH_SHAPES[s.state.mouth].open * s.state.amount * s.durationSec, 0);
  const at = (segs: ReturnType<typeof photoTimeline>, t: number) =>
    segs.find((s) => t >= s.startSec - 1e-9 && t < s.startSec + s.durationSec - 1e-9)!.state;

  it('reads the loudness of a voice, silent to its loud syllables', () => {
    const rate = 8000;
    const pcm = new Float32Array(rate);
    for (let i = rate / 2; i < rate; i++) pcm[i] = 0.3 * Math.sin(i / 3);
    const l = voiceLoudness(pcm, rate);
    expect(l.length).toBe(30);
    expect(l[5]).toBe(0);
    expect(l[25]).toBeCloseTo(1, 2);
  });

  it('opens with the voice, wider when it is louder, and shuts where it pauses inside a word', () => {
    const frames = 4 * 30;
    const loud = Array.from({ length: frames }, (_, f) => (f / 30 > 2.6 && f / 30 < 2.8 ? 0 : 1));
    const quiet = loud.map((v) => v * 0.45);
    const withLoud = photoTimeline({ words, totalSec: 4, seed: 'x', loudness: loud });
    const withQuiet = photoTimeline({ words, totalSec: 4, seed: 'x', loudness: quiet });
    expect(opening(withQuiet, 0.2, 1.2)).toBeLessThan(0.8 * opening(withLoud, 0.2, 1.2));
    // The voice pauses at 2.6–2.8 s inside "difference": the lips close there, as they do without a voice.
    expect(at(withLoud, 2.75 - MOUTH_LEAD_SEC).mouth).toBe('rest');
    expect(at(photoTimeline({ words, totalSec: 4, seed: 'x' }), 2.75 - MOUTH_LEAD_SEC).mouth).not.toBe('rest');
    expect(at(withLoud, 1.6).mouth).toBe('rest');
  });
});

describe('a photo actor render', () => {
  let dir: string;
  let face: PhotoFace;
  let photo: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'talk-test-'));
    process.env.HOOKREEL_RIG_CACHE = path.join(dir, 'cache');
    photo = path.join(dir, 'portrait.png');
    await writeFile(photo, await portraitFixture('portrait'));
    const a = await analyzePortrait(photo);
    await stopFaceDetector();
    if (!a.ok) throw new Error(a.reason);
    face = a.face;
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('talks: its report passes, the mouth moves and the background far from the head stays still', async () => {
    const out = await renderTalkingVideo({
      script: 'Stop scrolling. This bottle keeps water cold all day.',
      language: 'english',
      accent: 'american',
      actor: { kind: 'photo', imagePath: photo, gender: 'female', face },
      watermark: false,
      workDir: path.join(dir, 'render'),
    });
    // Every hard check passes, the photo's own among them (lip sync, identity, blinks, seam, face found).
    expect(hardFailures(out.report).map((c) => `${c.id}: ${c.detail}`)).toEqual([]);
    const ids = out.report.checks.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['face-found', 'lip-sync', 'identity', 'blinks', 'seam']));
    for (const id of ['face-found', 'lip-sync', 'identity', 'blinks', 'seam'])
      expect(out.report.checks.find((c) => c.id === id)?.level).toBe('pass');
    expect(out.rig).not.toBeNull();
    // Face and mouth boxes come from the points: the mouth lies inside the face.
    const { face: f, mouth: m } = out.rig!.boxes;
    expect(m.x).toBeGreaterThan(f.x);
    expect(m.y + m.h).toBeLessThan(f.y + f.h + 40);
    // Frames at 5 fps, grey 90x160: the mouth's area changes, the top corners (background) do not.
    const raw = path.join(dir, 'frames.gray');
    await runProcess('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      out.videoPath,
      '-vf',
      'fps=5,scale=90:160',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      raw,
    ]);
    const data = await readFile(raw);
    const n = Math.floor(data.length / (90 * 160));
    const mx = Math.round(((m.x + m.w / 2) / 576) * 90);
    const my = Math.round(((m.y + m.h / 2) / 1024) * 160);
    const mouthVals: number[] = [];
    const cornerVals: number[] = [];
    // The camera pushes in during the hook: frames after its first cut back to the wide shot only.
    for (let i = 0; i < n; i++) {
      mouthVals.push(data[i * 90 * 160 + my * 90 + mx]!);
      cornerVals.push(data[i * 90 * 160 + 2 * 90 + 2]!);
    }
    const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
    expect(spread(mouthVals)).toBeGreaterThan(20);
    expect(spread(cornerVals.slice(Math.floor(n / 2)))).toBeLessThan(12);
    const poster = await sharp(out.posterPath).metadata();
    expect(poster.width).toBeGreaterThan(0);
  }, 240_000);

  it('blinks the same way for the same photo wherever it is stored', async () => {
    const copy = path.join(dir, 'elsewhere', 'same-photo.png');
    await mkdir(path.dirname(copy), { recursive: true });
    await copyFile(photo, copy);
    const words = [
      { word: 'Try', startSec: 0.3, endSec: 0.6 },
      { word: 'it', startSec: 0.62, endSec: 0.8 },
      { word: 'today.', startSec: 0.85, endSec: 1.4 },
    ];
    const states = async (photoPath: string) =>
      (await photoActor({ photoPath, face, product: null, words, totalSec: 7 })).segments.map((g) => [
        g.state.eyes,
        g.durationSec,
      ]);
    const here = await states(photo);
    expect(here.some(([eyes]) => eyes === 'closed')).toBe(true);
    expect(await states(copy)).toEqual(here);
  }, 120_000);
});
