import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { WordTiming } from '../types.ts';
import { VIDEO_HEIGHT, VIDEO_WIDTH } from '../types.ts';
import { produceAtomic } from '../util/files.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';

export const FONT_DIR = process.env.HOOKREEL_FONT_DIR ?? '/usr/share/fonts/truetype/dejavu';
const FONT_BOLD = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');

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
        posterSourcePath: string;
      }
    | { kind: 'photo'; imagePath: string }
    | { kind: 'clip'; videoPath: string; posterSourcePath: string };
  voicePath: string;
  durationSec: number;
  words: readonly WordTiming[];
  assPath: string;
  watermark: boolean;
  outPath: string;
  posterPath: string;
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  timeoutMs?: number;
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

const filterPath = (p: string) => p.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");

/**
 * One ffmpeg run: frames → 720x1280 at 30 fps, burnt-in ASS captions (libass, DejaVu), optional watermark,
 * the voice as AAC, H.264 yuv420p with +faststart. Inputs are only files we wrote (file protocol only).
 */
export async function renderVideo(input: RenderInput): Promise<void> {
  const args = ['-y', '-hide_banner', '-nostats', '-v', 'error', '-protocol_whitelist', 'file,pipe'];
  let motion: string;
  if (input.visual.kind === 'lipflap') {
    const list = path.join(input.workDir, 'frames.txt');
    const segs = mouthTimeline(input.words, input.durationSec);
    const lines: string[] = [];
    for (const s of segs) {
      lines.push(
        `file '${s.open ? input.visual.openPath : input.visual.closedPath}'`,
        `duration ${s.durationSec.toFixed(3)}`,
      );
    }
    // The concat demuxer needs the last file repeated for its duration to count.
    lines.push(`file '${segs[segs.length - 1]?.open ? input.visual.openPath : input.visual.closedPath}'`);
    await writeFile(list, lines.join('\n') + '\n');
    args.push('-f', 'concat', '-safe', '0', '-i', list);
    motion = `scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:flags=bicubic,fps=30`;
  } else if (input.visual.kind === 'rig') {
    const list = path.join(input.workDir, 'frames.txt');
    const segs = input.visual.segments;
    const lines = segs.flatMap((s) => [`file '${s.path}'`, `duration ${s.durationSec.toFixed(4)}`]);
    // The concat demuxer needs the last file repeated for its duration to count.
    if (segs.length) lines.push(`file '${segs[segs.length - 1]!.path}'`);
    await writeFile(list, lines.join('\n') + '\n');
    args.push('-f', 'concat', '-safe', '0', '-i', list);
    motion = `fps=30,${input.visual.camera}`;
  } else if (input.visual.kind === 'clip') {
    args.push('-i', input.visual.videoPath);
    motion = `scale=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:force_original_aspect_ratio=increase:flags=bicubic,crop=${VIDEO_WIDTH}:${VIDEO_HEIGHT},fps=30,tpad=stop_mode=clone:stop_duration=${input.durationSec.toFixed(3)}`;
  } else {
    args.push('-loop', '1', '-framerate', '30', '-t', input.durationSec.toFixed(3), '-i', input.visual.imagePath);
    // Gentle handheld-style drift: scale up 8% and move the crop window slowly.
    const W = Math.round(VIDEO_WIDTH * 1.08);
    const H = Math.round(VIDEO_HEIGHT * 1.08);
    motion = `scale=${W}:${H}:flags=bicubic,crop=${VIDEO_WIDTH}:${VIDEO_HEIGHT}:x='(in_w-out_w)/2+sin(t*0.7)*(in_w-out_w)/2.4':y='(in_h-out_h)/2+cos(t*0.5)*(in_h-out_h)/2.4',fps=30`;
  }
  args.push('-i', input.voicePath);
  let vf = `${motion},subtitles='${filterPath(input.assPath)}':fontsdir='${filterPath(FONT_DIR)}'`;
  if (input.watermark) {
    vf += `,drawtext=fontfile='${filterPath(FONT_BOLD)}':text='Hookreel · Free trial':fontcolor=white@0.75:fontsize=26:box=1:boxcolor=black@0.35:boxborderw=10:x=28:y=h*0.70`;
  }
  vf += ',format=yuv420p';
  args.push(
    '-filter_complex',
    `[0:v]${vf}[v]`,
    '-map',
    '[v]',
    '-map',
    '1:a',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-threads',
    '2',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    '48000',
    '-t',
    input.durationSec.toFixed(3),
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
  );
  const total = input.durationSec;
  await produceAtomic(input.outPath, async (tmp) => {
    await runProcess(FFMPEG, [...args, '-f', 'mp4', tmp], {
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
  const v = input.visual;
  const posterSource =
    v.kind === 'lipflap' ? v.closedPath : v.kind === 'clip' || v.kind === 'rig' ? v.posterSourcePath : v.imagePath;
  await produceAtomic(input.posterPath, (tmp) =>
    sharp(posterSource).resize(VIDEO_WIDTH, VIDEO_HEIGHT, { fit: 'cover' }).jpeg({ quality: 85 }).toFile(tmp),
  );
}
