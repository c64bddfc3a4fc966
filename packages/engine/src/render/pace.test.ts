import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FONT_DIR } from '../layout/font.ts';
import { testPoseFrame } from '../motion/test-frame.fixture.ts';
import { cameraFilter, cameraFilterKey, STILL_CAMERA, type CameraShot } from '../motion/timeline.ts';
import { runProcess } from '../util/process.ts';
import { CAMERA_STEP_TICKS, captionEvents, paceSegments, type PlaySegment } from './pace.ts';

const W = 720;
const H = 1280;

/** The push-in, a punch-in cut, the wide shot at the push-in's zoom and a close-up, as cameraShots makes them. */
const SHOTS: CameraShot[] = [
  { startSec: 0, endSec: 0.71, zoomFrom: 1, zoomTo: 1.05, cx: 288, cy: 477.875 },
  { startSec: 0.71, endSec: 1.23, zoomFrom: 1.18, zoomTo: 1.18, cx: 288, cy: 455.5 },
  { startSec: 1.23, endSec: 1.6, zoomFrom: 1.05, zoomTo: 1.05, cx: 288, cy: 477.875 },
  { startSec: 1.6, endSec: 2.2, zoomFrom: 1.93, zoomTo: 1.93, cx: 371.2, cy: 802.6 },
];

const dialogue = (layer: number, from: string, to: string, text: string) =>
  `Dialogue: ${layer},0:00:${from},0:00:${to},Caption,,0,0,0,,${text}`;

/**
 * Captions as the layout writes them: word spans changing off the frame grid and one exactly on a frame (0.30 s),
 * a sticker fading in and out, a word popping in (a timed \t), and a watermark on the whole time.
 */
const ASS = `[Script Info]
ScriptType: v4.00+
PlayResX: ${W}
PlayResY: ${H}
WrapStyle: 2
ScaledBorderAndShadow: yes

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Caption,DejaVu Sans,54,&H00FFFFFF,&H00FFFFFF,&H00111111,&H73111111,-1,0,0,0,100,100,0,0,1,4,2,8,0,0,0,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
${dialogue(1, '00.00', '02.20', '{\\an7\\pos(40,1100)\\fs22}Free trial')}
${dialogue(2, '00.05', '00.90', '{\\an8\\pos(360,200)\\fs48\\fad(140,120)}The hook, fading')}
${dialogue(4, '00.18', '00.30', '{\\an8\\pos(360,818)}{\\c&H3FD2FF&}I{\\c&HFFFFFF&} was here')}
${dialogue(4, '00.30', '00.43', '{\\an8\\pos(360,818)}I {\\c&H3FD2FF&}was{\\c&HFFFFFF&} here')}
${dialogue(4, '00.43', '01.13', '{\\an8\\pos(360,818)}I was {\\c&H3FD2FF&}here{\\c&HFFFFFF&}')}
${dialogue(4, '01.29', '01.83', '{\\an5\\pos(360,818)\\fscx72\\fscy72\\t(0,90,\\fscx100\\fscy100)}POP')}
`;

/** Frame checksums of a concat list through the rig's chain: fps first (every frame drawn) or last (paced). */
async function frames(list: string, graph: string, seconds: number): Promise<string[]> {
  const { stdout } = await runProcess('ffmpeg', [
    ...['-v', 'error', '-f', 'concat', '-safe', '0', '-i', list],
    ...['-vf', graph, '-t', seconds.toFixed(3), '-f', 'framemd5', '-'],
  ]);
  return stdout
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split(',').map((f) => f.trim()))
    .map((f) => `${f[1]} ${f[5]}`);
}

async function concatList(file: string, segs: readonly PlaySegment[], digits: number): Promise<string> {
  const lines = segs.flatMap((s) => [`file '${s.path}'`, `duration ${s.durationSec.toFixed(digits)}`]);
  lines.push(`file '${segs[segs.length - 1]!.path}'`);
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

describe('pacing the rig: camera and captions drawn once per distinct picture', () => {
  let dir: string;
  let segments: PlaySegment[];
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-pace-'));
    const poses = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const p = path.join(dir, `pose-${i}.y4m`);
        await writeFile(p, testPoseFrame(i, W, H));
        return p;
      }),
    );
    // Pose changes off the frame grid, one shorter than a frame, as word timings give them.
    const durations = [0.3, 0.37, 0.01, 0.2, 0.41, 0.09, 0.33, 0.48];
    segments = durations.map((d, i) => ({ path: poses[i % 3]!, durationSec: d }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('gives every output frame the picture of drawing every frame with the camera where its entry starts', async () => {
    const assPath = path.join(dir, 'captions.ass');
    await writeFile(assPath, ASS);
    const total = segments.reduce((a, s) => a + s.durationSec, 0);
    const camera = cameraFilter(SHOTS, W, H);
    const cameraKey = cameraFilterKey(SHOTS, W, H);
    const subtitles = `subtitles='${assPath}':fontsdir='${FONT_DIR}'`;
    const paced = paceSegments(segments, cameraKey, captionEvents(ASS));
    // The tick each entry starts on, and for every tick the start of the entry that shows it.
    const entryStarts: number[] = [];
    paced.reduce((t, s) => (entryStarts.push(Math.round(t * 30)), t + s.durationSec), 0);
    const ticks = Math.round(total * 30);
    const cameraTick = Array.from({ length: ticks }, (_, k) => entryStarts.filter((a) => a <= k).at(-1)!);

    // Every frame drawn on its own tick: captions at the tick's time, the camera at its entry's start (the
    // first setpts), then the tick's own time back for the captions (the second).
    const cameraTime = entryStarts.reduceRight(
      (acc, a, i) => (i === entryStarts.length - 1 ? String(a) : `if(lt(N,${entryStarts[i + 1]}),${a},${acc})`),
      '',
    );
    const before = await frames(
      await concatList(path.join(dir, 'before.txt'), segments, 4),
      `format=yuv420p,fps=30,setpts='${cameraTime}',${camera},setpts=N,${subtitles}`,
      total,
    );
    const after = await frames(
      await concatList(path.join(dir, 'after.txt'), paced, 6),
      `format=yuv420p,${camera},${subtitles},fps=30`,
      total,
    );
    expect(before.length).toBe(ticks);
    expect(after).toEqual(before);
    // A frame framed other than its own tick would frame it is never more than CAMERA_STEP_TICKS - 1 ticks
    // behind, and always in the tick's own shot: a cut shows on its tick.
    for (let k = 0; k < ticks; k++) {
      const shown = cameraKey(cameraTick[k]! / 30);
      const own = cameraKey(k / 30);
      expect(shown.shot).toBe(own.shot);
      if (shown.framing !== own.framing) expect(k - cameraTick[k]!).toBeLessThan(CAMERA_STEP_TICKS);
    }
    // The push-in (to 0.71 s) moves in steps with the picture; after it, only cuts, poses and captions change it.
    const pushIn = entryStarts.filter((a) => a < 0.71 * 30).length;
    expect(pushIn).toBeLessThan(0.71 * 30 * 0.6);
    expect(paced.length).toBeLessThan(ticks * 0.5);
    expect(new Set(before.map((f) => f.split(' ')[1])).size).toBeLessThanOrEqual(paced.length);
  }, 60_000);

  it('starts every entry on a frame and ends the list where it ended', () => {
    const paced = paceSegments(segments, STILL_CAMERA, []);
    const total = segments.reduce((a, s) => a + Number(s.durationSec.toFixed(4)), 0);
    expect(paced.reduce((a, s) => a + s.durationSec, 0)).toBeCloseTo(total, 6);
    let t = 0;
    for (const s of paced.slice(0, -1)) {
      t += s.durationSec;
      expect(Math.abs(t * 30 - Math.round(t * 30))).toBeLessThan(1e-4);
    }
    // Still camera, no captions: one entry per pose change that shows (the 0.01 s pose rounds onto the next
    // one's frame and never shows), consecutive equal poses merged.
    expect(paced.map((s) => path.basename(s.path))).toEqual([
      'pose-0.y4m',
      'pose-1.y4m',
      'pose-0.y4m',
      'pose-1.y4m',
      'pose-2.y4m',
      'pose-0.y4m',
      'pose-1.y4m',
    ]);
    // fps takes a frame from the tick nearest its time: the second pose (0.3 s) from frame 9, the fourth
    // (0.68 s, 20.4 frames) from frame 20.
    expect(paced[0]!.durationSec).toBeCloseTo(9 / 30, 6);
    expect(paced[1]!.durationSec).toBeCloseTo(11 / 30, 6);
  });

  it('reads when each caption event shows and when it animates', () => {
    const events = captionEvents(ASS);
    expect(events).toHaveLength(6);
    expect(events[0]).toEqual({ startMs: 0, endMs: 2200, moving: [] });
    expect(events[1]).toEqual({
      startMs: 50,
      endMs: 900,
      moving: [
        [50, 190],
        [780, 900],
      ],
    });
    expect(events[5]).toEqual({ startMs: 1290, endMs: 1830, moving: [[1290, 1380]] });
    const moved = captionEvents(`${dialogue(1, '01.00', '02.00', '{\\move(0,0,10,10)}Hi')}\n`);
    expect(moved[0]!.moving).toEqual([[1000, 2000]]);
    const untimed = captionEvents(`${dialogue(1, '01.00', '02.00', '{\\t(\\fscx120)}Hi')}\n`);
    expect(untimed[0]!.moving).toEqual([[1000, 2000]]);
  });
});
