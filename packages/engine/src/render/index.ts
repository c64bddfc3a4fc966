import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CameraMotion, VideoLayout } from '../layout/index.ts';
import type { CameraKey } from '../motion/timeline.ts';
import { FONT_DIR } from '../layout/font.ts';
import type { WordTiming } from '../types.ts';
import { VIDEO_HEIGHT, VIDEO_WIDTH } from '../types.ts';
import { produceAtomic } from '../util/files.ts';
import { concatFileLine, FFMPEG, filterPath, ONE_FILTER_THREAD } from '../util/media.ts';
import { runProcess } from '../util/process.ts';
import { AUDIO_RATE, levelFilter } from './audio.ts';
import { captionEvents, PACE_FPS, paceSegments } from './pace.ts';

export { FONT_DIR };

/** How each kind of visual moves: the layout grows the face and product boxes by this so text never meets them. */
export const CAMERA: Record<RenderInput['visual']['kind'], CameraMotion> = {
  lipflap: { maxZoom: 1, driftPx: 0 },
  // The rig's camera is described exactly by its shots (the layout follows them in time); this is unused.
  rig: { maxZoom: 1, driftPx: 0 },
  // Gentle handheld-style drift: scaled up 6% with the crop window moving slowly (see renderVideo).
  photo: { maxZoom: 1.06, driftPx: 20 },
  clip: { maxZoom: 1, driftPx: 0 },
};

export interface RenderInput {
  /**
   * Lip-flap: a closed-mouth and an open-mouth frame switched on the word timings. Photo: one frame, moving.
   * Clip: a talking video from a lip-sync provider (its own audio is replaced by the voice track).
   */
  visual:
    | { kind: 'lipflap'; closedPath: string; openPath: string }
    /** The character rig: pre-rendered 720x1280 pose frames played in order, then the camera filter. */
    | {
        kind: 'rig';
        segments: ReadonlyArray<{ path: string; durationSec: number }>;
        camera: string;
        /**
         * When the camera filter's framing changes (`cameraFilterKey`): with it, a 9:16 render paces its frames
         * (render/pace.ts) and draws camera and captions once per distinct picture.
         */
        cameraKey?: CameraKey;
        posterSourcePath: string;
      }
    | { kind: 'photo'; imagePath: string }
    | { kind: 'clip'; videoPath: string; posterSourcePath: string };
  /**
   * The sound track, at most durationSec long: prepareAudio's levelled mix (48 kHz stereo WAV), or with
   * `audioLevelDb` the voice as it was spoken (mono WAV at any rate) for the encode to level.
   */
  audioPath: string;
  /** prepareAudio's final gain, applied as the encode reads the track (0 or absent: none). */
  audioGainDb?: number;
  /**
   * The voice's levelling gain from its measured loudness (`levelGain`): the encode applies it and the limiter
   * as it reads the track, the second of the two passes, so a video without a music bed needs no audio run of its
   * own (decision 155). Absent: the track is levelled already.
   */
  audioLevelDb?: number | null;
  durationSec: number;
  words: readonly WordTiming[];
  /** Where everything goes; the ASS file at assPath is this layout's text (layoutToAss). */
  layout: VideoLayout;
  assPath: string;
  /** The product picture of the end card (RGBA PNG), drawn in layout.endCard.product. */
  endCardImagePath?: string | null;
  /** The brand's logo (PNG/WEBP with alpha), drawn in layout.outro.logo over the outro card. */
  outroLogoPath?: string | null;
  /** Where libass finds the caption font (the brand kit's choice); DejaVu's folder by default. */
  fontDir?: string;
  outPath: string;
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  timeoutMs?: number;
  /**
   * More outputs from the finished frames in the same run (the quality report's pictures and samples): `graph`
   * reads the frames from the link label it is given; `outputArgs` follow the video's output.
   */
  taps?: (input: string) => { graph: string; outputArgs: string[] };
  /**
   * Like `taps`, for the picture before the text is drawn on it (the report compares it with the encoded frames
   * to see the text: report/text.ts).
   */
  bareTap?: (input: string) => { graph: string; outputArgs: string[] };
  /**
   * Another frame shape re-composed from the master picture (docs/video-design.md#aspects): a full-width cut
   * `cropHeight` tall whose top follows `cropY` (an expression of t), scaled to width x height. The ASS file is
   * then written for the cut's size and libass scales it to the output; `layout` is in output pixels.
   */
  frame?: { width: number; height: number; cropHeight: number; cropY: string };
}

export interface MouthSegment {
  open: boolean;
  durationSec: number;
}

/**
 * Mouth open/closed segments covering [0, total]: inside each spoken word the mouth alternates every ~0.11 s
 * starting open; between words it is closed. Adjacent equal segments are merged.
 */
export function mouthTimeline(words: readonly WordTiming[], totalSec: number, flapSec = 0.11): MouthSegment[] {
  const segs: MouthSegment[] = [];
  const push = (open: boolean, d: number) => {
    if (d <= 0.001) return;
    const last = segs[segs.length - 1];
    if (last && last.open === open) last.durationSec += d;
    else segs.push({ open, durationSec: d });
  };
  let t = 0;
  for (const w of words) {
    const start = Math.max(t, Math.min(w.startSec, totalSec));
    const end = Math.max(start, Math.min(w.endSec, totalSec));
    push(false, start - t);
    let open = true;
    for (let s = start; s < end; s += flapSec) {
      push(open, Math.min(flapSec, end - s));
      open = !open;
    }
    t = end;
  }
  push(false, totalSec - t);
  return segs;
}

/** How every render is encoded (the bench encodes its floor with the same settings). */
export const VIDEO_CODEC_ARGS = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-threads', '2'] as const;
/** AAC with the fast coder: a third of the default two-loop search's CPU at this bitrate, speech sounds the same. */
export const AUDIO_CODEC_ARGS = ['-c:a', 'aac', '-aac_coder', 'fast', '-b:a', '160k'] as const;

/**
 * The graph that lays a still picture (input `inputIndex`, read once) over `from`, fitted and centred in `box`,
 * fading in from `startSec` and shown while `enable` holds; its output is `to`.
 *
 * Read with `-loop 1`, ffmpeg decoded and scaled the picture again for every frame of the video, about 0.5 s of
 * CPU a render (a sixth of the encode) for a picture shown in its last seconds; here `loop` repeats the one scaled
 * frame on the output's 30 fps ticks instead, and the frames come out the same (decision 171). The stream starts
 * a tick early so that `enable`, not rounding, decides the first frame that shows it (the fade keeps it clear
 * until `startSec`).
 */
function stillOverlay(
  inputIndex: number,
  from: string,
  to: string,
  box: { x: number; y: number; w: number; h: number },
  show: { startSec: number; fadeSec: number; durationSec: number; enable: string },
): string {
  const first = Math.max(0, Math.floor(show.startSec * PACE_FPS) - 1);
  const last = Math.ceil(show.durationSec * PACE_FPS);
  const [x, y, w, h] = [box.x, box.y, box.w, box.h].map(Math.round) as [number, number, number, number];
  return (
    `;[${inputIndex}:v]scale=${w}:${h}:force_original_aspect_ratio=decrease,format=rgba,` +
    `settb=1/${PACE_FPS},loop=loop=${Math.max(0, last - first)}:size=1:start=0,setpts=N+${first},` +
    `fade=t=in:st=${show.startSec.toFixed(2)}:d=${show.fadeSec}:alpha=1[still${inputIndex}]` +
    `;${from}[still${inputIndex}]overlay=x=${x}+(${w}-overlay_w)/2:y=${y}+(${h}-overlay_h)/2:enable='${show.enable}'${to}`
  );
}

/** What ffmpeg's mono-to-stereo upmix does to each channel (its centre mix level, 1/√2). */
const UPMIX_DB = 20 * Math.log10(Math.SQRT1_2);

/**
 * One ffmpeg run: frames → 720x1280 at 30 fps, burnt-in ASS captions (libass, DejaVu), optional watermark,
 * the voice as AAC, H.264 yuv420p with +faststart. Inputs are only files we wrote (file protocol only).
 */
export async function renderVideo(input: RenderInput): Promise<void> {
  const args = ['-y', '-hide_banner', '-nostats', '-v', 'error', '-protocol_whitelist', 'file,pipe'];
  let motion: string;
  let paced = false;
  if (input.visual.kind === 'lipflap') {
    const list = path.join(input.workDir, 'frames.txt');
    const segs = mouthTimeline(input.words, input.durationSec);
    const lines: string[] = [];
    for (const s of segs) {
      lines.push(
        concatFileLine(s.open ? input.visual.openPath : input.visual.closedPath),
        `duration ${s.durationSec.toFixed(3)}`,
      );
    }
    // The concat demuxer needs the last file repeated for its duration to count.
    lines.push(concatFileLine(segs[segs.length - 1]?.open ? input.visual.openPath : input.visual.closedPath));
    await writeFile(list, lines.join('\n') + '\n');
    args.push('-f', 'concat', '-safe', '0', '-i', list);
    motion = `scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:flags=bicubic,fps=30`;
  } else if (input.visual.kind === 'rig') {
    const list = path.join(input.workDir, 'frames.txt');
    const { cameraKey } = input.visual;
    // Paced, the list holds one entry per distinct picture, so `fps` repeats frames after the captions are drawn
    // rather than before the camera (decision 156). A re-composed shape's crop moves with t: it is not paced.
    paced = !!cameraKey && !input.frame;
    const segs = paced
      ? paceSegments(input.visual.segments, cameraKey!, captionEvents(await readFile(input.assPath, 'utf8')))
      : input.visual.segments;
    const lines = segs.flatMap((s) => [concatFileLine(s.path), `duration ${s.durationSec.toFixed(6)}`]);
    // The concat demuxer needs the last file repeated for its duration to count.
    if (segs.length) lines.push(concatFileLine(segs[segs.length - 1]!.path));
    await writeFile(list, lines.join('\n') + '\n');
    // The demuxer opens every entry of the list as a file of its own (a few hundred a video) and, left to itself,
    // probes each against every format ffmpeg knows: a quarter of what reading the frames costs. Every entry is
    // a Y4M frame we wrote, so only that format is allowed (the list's files inherit the whitelist).
    args.push('-format_whitelist', 'concat,yuv4mpegpipe', '-f', 'concat', '-safe', '0', '-i', list);
    // Pose frames are yuv420p already (Y4M) and stay planar: the camera scales 1.5 bytes a pixel instead of 4,
    // which more than halves the cost of the render (decision 096).
    motion = paced ? `format=yuv420p,${input.visual.camera}` : `format=yuv420p,fps=30,${input.visual.camera}`;
  } else if (input.visual.kind === 'clip') {
    args.push('-i', input.visual.videoPath);
    motion = `scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:force_original_aspect_ratio=increase:flags=bicubic,crop=${VIDEO_WIDTH}:${VIDEO_HEIGHT},fps=30,tpad=stop_mode=clone:stop_duration=${input.durationSec.toFixed(3)}`;
  } else {
    args.push('-loop', '1', '-framerate', '30', '-t', input.durationSec.toFixed(3), '-i', input.visual.imagePath);
    // Gentle handheld-style drift: scale up 6% and move the crop window slowly (at most CAMERA.photo.driftPx).
    const W = Math.round(VIDEO_WIDTH * CAMERA.photo.maxZoom);
    const H = Math.round(VIDEO_HEIGHT * CAMERA.photo.maxZoom);
    const d = CAMERA.photo.driftPx;
    motion = `format=yuv420p,scale=${W}:${H}:flags=bicubic,setsar=1,crop=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:x='(in_w-out_w)/2+sin(t*0.7)*min(${d},(in_w-out_w)/2)':y='(in_h-out_h)/2+cos(t*0.5)*min(${d},(in_h-out_h)/2)':exact=1,fps=30`;
  }
  args.push('-i', input.audioPath);
  // Square pixels whatever the source: scale to exactly 720x1280 and declare SAR 1:1.
  const frame = input.frame
    ? `,crop=${VIDEO_WIDTH}:${input.frame.cropHeight}:0:'${input.frame.cropY}':exact=1,` +
      `scale=${input.frame.width}:${input.frame.height}:flags=bicubic,setsar=1`
    : '';
  const bare = input.bareTap?.('[bare]');
  let graph = `[0:v]${motion},scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT},setsar=1${frame}`;
  if (bare) graph += `,split=2[pre][bare];${bare.graph};[pre]`;
  graph += `subtitles='${filterPath(input.assPath)}':fontsdir='${filterPath(input.fontDir ?? FONT_DIR)}'${paced ? ',fps=30' : ''}[base]`;
  let last = '[base]';
  let nextInput = 2;
  const card = input.layout.endCard;
  if (card?.product && input.endCardImagePath) {
    // The end card's product picture, fading in over the card the captions file draws.
    args.push('-i', input.endCardImagePath);
    graph += stillOverlay(nextInput, last, '[carded]', card.product, {
      startSec: card.startSec,
      fadeSec: 0.3,
      durationSec: input.durationSec,
      enable: `between(t,${card.startSec.toFixed(2)},${card.endSec.toFixed(2)})`,
    });
    last = '[carded]';
    nextInput++;
  }
  const outro = input.layout.outro;
  if (outro && input.outroLogoPath) {
    // The logo on the outro card the captions file draws, fading in with it; it stays to the last frame.
    args.push('-i', input.outroLogoPath);
    graph += stillOverlay(nextInput, last, '[outro]', outro.logo, {
      startSec: outro.startSec,
      fadeSec: 0.25,
      durationSec: input.durationSec,
      enable: `gte(t,${outro.startSec.toFixed(2)})`,
    });
    last = '[outro]';
    nextInput++;
  }
  graph += `;${last}format=yuv420p,setsar=1${input.taps ? ',split=2[v][tap]' : '[v]'}`;
  const taps = input.taps?.('[tap]');
  if (taps) graph += `;${taps.graph}`;
  // The track is padded with silence to the video's length, and the last loudness gain is applied here rather
  // than in a pass of its own that rewrites the WAV: the voice's levelling, or prepareAudio's final trim.
  // The voice is mono: it is levelled as one channel and then put in both. ffmpeg's own mono-to-stereo upmix puts
  // it in each channel 3 dB down, so the gain is 3 dB less and the limiter sees the same samples: the same track
  // for half the filtering.
  const level =
    input.audioLevelDb != null
      ? `aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=mono,` +
        `${levelFilter(input.audioLevelDb + UPMIX_DB)},pan=stereo|c0=c0|c1=c0,`
      : '';
  const gain = input.audioGainDb ? `,volume=${input.audioGainDb.toFixed(2)}dB` : '';
  graph += `;[1:a]${level}apad=whole_dur=${input.durationSec.toFixed(3)}${gain}[a]`;
  const audioMap = '[a]';
  args.push(
    ...ONE_FILTER_THREAD,
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    audioMap,
    ...VIDEO_CODEC_ARGS,
    ...AUDIO_CODEC_ARGS,
    '-ar',
    '48000',
    '-ac',
    '2',
    '-t',
    input.durationSec.toFixed(3),
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
  );
  const total = input.durationSec;
  await produceAtomic(input.outPath, async (tmp) => {
    await runProcess(FFMPEG, [...args, '-f', 'mp4', tmp, ...(taps?.outputArgs ?? []), ...(bare?.outputArgs ?? [])], {
      signal: input.signal,
      timeoutMs: input.timeoutMs ?? 300_000,
      onStdout: (chunk) => {
        const m = /out_time_us=(\d+)/g;
        let last: RegExpExecArray | null = null;
        for (let r = m.exec(chunk); r; r = m.exec(chunk)) last = r;
        if (last && total > 0) input.onProgress?.(Math.min(1, Number(last[1]) / 1e6 / total));
      },
    });
  });
}
