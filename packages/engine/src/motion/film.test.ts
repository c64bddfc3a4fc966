import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../util/process.ts';
import {
  FRAMING_VERSION,
  filmPlan,
  filmSegments,
  framedFramesMade,
  framedPath,
  framingView,
  heldFraming,
  type FramedDrawer,
} from './film.ts';
import { actorFromDescription } from '../actors/index.ts';
import { REST_POSE } from '../actors/rig.ts';
import { rigFrameY4m, y4mHeader } from './frames.ts';
import { testPoseFrame } from './test-frame.fixture.ts';
import { cameraFilter, type CameraShot } from './timeline.ts';

const W = 720;
const H = 1280;

const testFrame = (seed: number) => testPoseFrame(seed, W, H);

/** The push-in, a punch-in cut, the wide shot held at the push-in's zoom and a close-up, as cameraShots makes them. */
const SHOTS: CameraShot[] = [
  { startSec: 0, endSec: 0.71, zoomFrom: 1, zoomTo: 1.05, cx: 288, cy: 477.875 },
  { startSec: 0.71, endSec: 1.23, zoomFrom: 1.18, zoomTo: 1.18, cx: 288, cy: 455.5 },
  { startSec: 1.23, endSec: 1.6, zoomFrom: 1.05, zoomTo: 1.05, cx: 288, cy: 477.875 },
  { startSec: 1.6, endSec: 2.2, zoomFrom: 1.93, zoomTo: 1.93, cx: 371.2, cy: 802.6 },
];

async function concatList(dir: string, name: string, segs: ReadonlyArray<{ path: string; durationSec: number }>) {
  const list = path.join(dir, name);
  const lines = segs.flatMap((s) => [`file '${s.path}'`, `duration ${s.durationSec.toFixed(4)}`]);
  lines.push(`file '${segs[segs.length - 1]!.path}'`);
  await writeFile(list, lines.join('\n') + '\n');
  return list;
}

async function frameHashes(list: string, camera: string, seconds: number): Promise<string[]> {
  const { stdout } = await runProcess('ffmpeg', [
    ...['-v', 'error', '-f', 'concat', '-safe', '0', '-i', list],
    ...['-vf', `format=yuv420p,fps=30,${camera}`, '-t', seconds.toFixed(3), '-f', 'framemd5', '-'],
  ]);
  return stdout
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').pop()!.trim());
}

/** The played frames' luma (grey), optionally shrunk to w x h by area averaging, one buffer a frame. */
async function lumaFrames(
  list: string,
  camera: string,
  seconds: number,
  size: { w: number; h: number } = { w: W, h: H },
): Promise<Buffer[]> {
  const raw = `${list}.${size.w}x${size.h}.gray`;
  const shrink = size.w === W ? '' : `,scale=${size.w}:${size.h}:flags=area`;
  await runProcess('ffmpeg', [
    ...['-y', '-v', 'error', '-f', 'concat', '-safe', '0', '-i', list],
    ...['-vf', `format=yuv420p,fps=30,${camera}${shrink}`, '-t', seconds.toFixed(3)],
    ...['-f', 'rawvideo', '-pix_fmt', 'gray', raw],
  ]);
  const all = await readFile(raw);
  const n = size.w * size.h;
  return Array.from({ length: all.length / n }, (_, i) => all.subarray(i * n, (i + 1) * n));
}

/** Peak signal-to-noise ratio of two grey pictures, in dB (Infinity when equal). */
function psnr(a: Buffer, b: Buffer): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) se += (a[i]! - b[i]!) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255 * a.length) / se);
}

/** Variance of the 4-neighbour Laplacian over a grey W x H picture: the edge energy a soft picture lacks. */
function laplacianVariance(p: Buffer): number {
  let sum = 0;
  let sq = 0;
  let n = 0;
  for (let y = 1; y < H - 1; y++)
    for (let x = 1; x < W - 1; x++) {
      const i = y * W + x;
      const l = p[i - 1]! + p[i + 1]! + p[i - W]! + p[i + W]! - 4 * p[i]!;
      sum += l;
      sq += l * l;
      n++;
    }
  return sq / n - (sum / n) ** 2;
}

/**
 * A drawer that frames a test pose frame as the camera filter would, with ffmpeg (lanczos, then the crop): the
 * plan's timing and the play list are what these tests check; the rig's own drawing is checked below.
 */
const scaledDrawer: FramedDrawer = async (source, f) => {
  // Its own file per call: a cancelled render and the one drawing after it may frame the same pose at once.
  const out = `${source}.${f.sw}x${f.sh}+${f.x}+${f.y}.${Math.random().toString(36).slice(2)}.test.yuv`;
  await runProcess('ffmpeg', [
    ...['-y', '-v', 'error', '-i', source, '-vf', `scale=${f.sw}:${f.sh}:flags=lanczos,crop=${W}:${H}:${f.x}:${f.y}`],
    ...['-f', 'rawvideo', '-pix_fmt', 'yuv420p', out],
  ]);
  const frame = Buffer.concat([y4mHeader(W, H), await readFile(out)]);
  await rm(out, { force: true });
  return frame;
};

describe('filming the camera with held shots baked into the frames', () => {
  let dir: string;
  let segments: Array<{ path: string; durationSec: number }>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-film-'));
    const poses = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const p = path.join(dir, `pose-${i}.y4m`);
        await writeFile(p, testFrame(i));
        return p;
      }),
    );
    // Pose changes off the frame grid and across the shots' cuts, as word timings give them.
    const durations = [0.3, 0.37, 0.2, 0.41, 0.09, 0.33, 0.5];
    segments = durations.map((d, i) => ({ path: poses[i % 3]!, durationSec: d }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** The test segments over three pose frames of a directory of their own (no framed frame made yet). */
  async function ownPlan(name: string) {
    const own = await mkdtemp(path.join(dir, `${name}-`));
    const poses = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const p = path.join(own, `pose-${i}.y4m`);
        await writeFile(p, testFrame(i));
        return p;
      }),
    );
    const plan = filmPlan(
      segments.map((s, i) => ({ ...s, path: poses[i % 3]! })),
      SHOTS,
      W,
      H,
    );
    return { poses, plan };
  }

  it('plays held shots through their framings at the camera filter’s times and keeps the push-in’s pixels', async () => {
    const total = segments.reduce((a, s) => a + s.durationSec, 0);
    const camera = cameraFilter(SHOTS, W, H);
    const beforeList = await concatList(dir, 'before.txt', segments);
    const plan = filmPlan(segments, SHOTS, W, H);
    const filmed = await filmSegments(plan, scaledDrawer);
    const afterList = await concatList(dir, 'after.txt', filmed);
    const before = await frameHashes(beforeList, camera, total);
    const after = await frameHashes(afterList, plan.camera, total);
    expect(before.length).toBeGreaterThanOrEqual(Math.floor(total * 30));
    expect(after.length).toBe(before.length);
    // The push-in is still the camera filter's: its frames (0-21, before the punch-in's frame 22) are identical.
    expect(after.slice(0, 22)).toEqual(before.slice(0, 22));
    // Held shots differ only in the scaler: shrunk 8x, every frame is the same picture (same crop, same pose
    // frame at the same time), ~35 dB against the camera filter's fast bilinear at the close-up's 1.93x; the
    // same frames with the picture moved 4 px score ~25 dB (checked here).
    const small = { w: W / 8, h: H / 8 };
    const lowBefore = await lumaFrames(beforeList, camera, total, small);
    const lowAfter = await lumaFrames(afterList, plan.camera, total, small);
    expect(lowAfter.length).toBe(lowBefore.length);
    const worst = Math.min(...lowAfter.map((f, i) => psnr(f, lowBefore[i]!)));
    expect(worst).toBeGreaterThan(33);
    const shifted = await lumaFrames(beforeList, `${camera},crop=${W - 4}:${H}:4:0,pad=${W}:${H}`, total, small);
    expect(Math.min(...shifted.slice(22).map((f, i) => psnr(f, lowBefore[i + 22]!)))).toBeLessThan(worst - 6);
    // Held shots play framed frames, made once and kept beside the pose frames, named with the framing's version.
    const framedName = new RegExp(`\\.f\\d+x\\d+\\+\\d+\\+\\d+\\.v${FRAMING_VERSION}\\.y4m$`);
    expect(filmed.some((s) => framedName.test(s.path))).toBe(true);
    const made = (await readdir(dir)).filter((f) => f.includes('.f'));
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((f) => framedName.test(f))).toBe(true);
    // A second plan of the same frames makes nothing new.
    await filmSegments(plan, scaledDrawer);
    expect((await readdir(dir)).filter((f) => f.includes('.f'))).toEqual(made);
  }, 60_000);

  it('makes each framed frame once when two renders of the actor start together, even if one is cancelled', async () => {
    const { plan } = await ownPlan('together');
    const framedFiles = new Set(plan.entries.filter((e) => e.framing).map((e) => framedPath(e.source, e.framing!)));
    const before = framedFramesMade();
    const [a, b] = await Promise.all([filmSegments(plan, scaledDrawer), filmSegments(plan, scaledDrawer)]);
    expect(b).toEqual(a);
    expect(framedFramesMade() - before).toBe(framedFiles.size);

    // The first render is cancelled while it draws and the second waits for its frames: the second makes them.
    await Promise.all([...framedFiles].map((f) => rm(f)));
    const cancelled = new AbortController();
    let drawing!: () => void;
    const started = new Promise<void>((resolve) => (drawing = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held: FramedDrawer = async (source, framing) => {
      drawing();
      await gate;
      return scaledDrawer(source, framing);
    };
    const firstRun = filmSegments(plan, held, cancelled.signal);
    await started;
    const secondRun = filmSegments(plan, scaledDrawer);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cancelled.abort();
    release();
    const [first, second] = await Promise.allSettled([firstRun, secondRun]);
    expect(first.status).toBe('rejected');
    expect(second).toEqual({ status: 'fulfilled', value: a });
    for (const f of framedFiles) expect((await stat(f)).size).toBeGreaterThan(W * H);
  }, 60_000);

  it('hands held shots’ frames to the drawer once each and plays what it drew', async () => {
    const { poses, plan } = await ownPlan('drawn');
    const asked: string[] = [];
    const draw: FramedDrawer = async (source, framing) => {
      asked.push(framedPath(source, framing));
      return testFrame(10 + poses.indexOf(source));
    };
    const [a, b] = await Promise.all([filmSegments(plan, draw), filmSegments(plan, draw)]);
    expect(b).toEqual(a);
    const framed = [...new Set(plan.entries.filter((e) => e.framing).map((e) => framedPath(e.source, e.framing!)))];
    expect(asked.sort()).toEqual(framed.sort());
    for (const e of plan.entries.filter((x) => x.framing))
      expect(await readFile(framedPath(e.source, e.framing!))).toEqual(testFrame(10 + poses.indexOf(e.source)));
    await filmSegments(plan, draw);
    expect(asked).toHaveLength(framed.length);
  });

  it('draws a rig’s held shot again where the camera’s scale and crop put it, sharper than scaling it up', async () => {
    const own = await mkdtemp(path.join(dir, 'rig-'));
    const spec = actorFromDescription('woman with curly red hair and glasses', 0);
    const frame = { spec, pose: REST_POSE, product: null, width: W, height: H };
    const source = path.join(own, 'rest.y4m');
    await writeFile(source, await rigFrameY4m(frame));
    const framing = heldFraming({ startSec: 0, endSec: 1, zoomFrom: 1.93, zoomTo: 1.93, cx: 300, cy: 420 }, W, H)!;
    const drawn = path.join(own, 'drawn.y4m');
    await writeFile(drawn, await rigFrameY4m({ ...frame, view: framingView(framing, W, H) }));
    let n = 0;
    const luma = async (file: string, filters: string, size = { w: W, h: H }) => {
      const out = path.join(own, `luma-${n++}.gray`);
      await runProcess('ffmpeg', [
        ...['-v', 'error', '-i', file, '-vf', `${filters}scale=${size.w}:${size.h}:flags=area,format=gray`],
        ...['-f', 'rawvideo', out],
      ]);
      return readFile(out);
    };
    const scaled = `scale=${framing.sw}:${framing.sh}:flags=lanczos,crop=${W}:${H}:${framing.x}:${framing.y},`;
    const small = { w: W / 8, h: H / 8 };
    const same = psnr(await luma(drawn, '', small), await luma(source, scaled, small));
    const moved = psnr(
      await luma(drawn, '', small),
      await luma(source, `${scaled}crop=${W - 8}:${H}:8:0,pad=${W}:${H},`, small),
    );
    expect(same).toBeGreaterThan(33);
    expect(moved).toBeLessThan(same - 6);
    expect(laplacianVariance(await luma(drawn, ''))).toBeGreaterThan(2 * laplacianVariance(await luma(source, scaled)));
  }, 30_000);

  it('cuts the pieces at the held shots’ first frames and keeps the total length', () => {
    const plan = filmPlan(segments, SHOTS, W, H);
    const total = segments.reduce((a, s) => a + s.durationSec, 0);
    expect(plan.entries[0]!.startSec).toBe(0);
    expect(plan.entries[plan.entries.length - 1]!.endSec).toBeCloseTo(total, 9);
    for (let i = 1; i < plan.entries.length; i++)
      expect(plan.entries[i]!.startSec).toBeCloseTo(plan.entries[i - 1]!.endSec, 9);
    // The punch-in starts on frame 22 (0.733 s), the first the camera filter gave it (t >= 0.71).
    const firstHeld = plan.entries.find((e) => e.framing)!;
    expect(firstHeld.startSec).toBeCloseTo(22 / 30, 9);
    expect(firstHeld.framing).toEqual(heldFraming(SHOTS[1]!, W, H));
    // Only the push-in is left to the camera filter.
    expect(plan.camera).toContain('0.07042');
    expect(plan.camera).not.toContain('1.1800');
  });

  it('needs no camera filter when nothing moves, and no framing at zoom 1', () => {
    const held: CameraShot[] = [{ startSec: 0, endSec: 3, zoomFrom: 1, zoomTo: 1, cx: 288, cy: 512 }];
    const plan = filmPlan(segments, held, W, H);
    expect(plan.camera).toBe('null');
    expect(plan.entries.every((e) => e.framing === null)).toBe(true);
    expect(heldFraming({ ...held[0]!, zoomFrom: 1.18, zoomTo: 1.18, cx: 288, cy: 455.5 }, W, H)).toEqual({
      sw: 848,
      sh: 1510,
      x: 65,
      y: 32,
    });
  });
});
