import { open } from 'node:fs/promises';
import { runProcess } from './process.ts';

export const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

/**
 * Runs a `-filter_complex` graph on one thread. ffmpeg's default gives each graph a pool of as many threads as
 * cores, and on our 720x1280 frames and audio the hand-offs cost more than the slices gain: a render's encode
 * took ~5% more CPU and wall time with it, and framing held shots nearly twice the CPU. The output is the same
 * bytes (decision 160).
 */
export const ONE_FILTER_THREAD = ['-filter_complex_threads', '1'] as const;

/** A path as a quoted option value in a filter graph (`subtitles='…'`): `\`, `:` and `'` escaped. */
export const filterPath = (p: string) => p.replace(/\\/g, '\\\\').replace(/:/g, '\\:').replace(/'/g, "\\'");

/**
 * A concat demuxer list's `file` line. The path is quoted; a quote inside it is closed, escaped and reopened,
 * as the demuxer's own syntax reads it.
 */
export const concatFileLine = (file: string): string => `file '${file.replace(/'/g, "'\\''")}'`;

export interface ProbeStream {
  codec_type: string;
  codec_name: string;
  width?: number;
  height?: number;
  duration?: string;
  sample_rate?: string;
  channels?: number;
  pix_fmt?: string;
}
export interface ProbeResult {
  streams: ProbeStream[];
  format: { duration?: string; format_name?: string };
}

export async function ffprobe(filePath: string): Promise<ProbeResult> {
  const { stdout } = await runProcess(
    FFPROBE,
    ['-v', 'error', '-protocol_whitelist', 'file', '-show_streams', '-show_format', '-of', 'json', filePath],
    { timeoutMs: 30_000 },
  );
  return JSON.parse(stdout) as ProbeResult;
}

export async function mediaDurationSec(filePath: string): Promise<number> {
  const p = await ffprobe(filePath);
  const d = Number(p.format.duration ?? p.streams[0]?.duration ?? NaN);
  if (!Number.isFinite(d)) throw new Error(`Cannot read duration of ${filePath}`);
  return d;
}

/**
 * Length of a PCM WAV we wrote, from its header (the data chunk's size over the byte rate): reading 64 KB costs
 * nothing, starting ffprobe costs ~60 ms of CPU a video. Falls back to ffprobe for anything else (not RIFF/WAVE,
 * not PCM, a streamed header with no sizes).
 */
export async function wavDurationSec(filePath: string): Promise<number> {
  const file = await open(filePath, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await file.stat()).size;
    const buf = Buffer.alloc(Math.min(size, 65536));
    const { bytesRead } = await file.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  const parsed = parseWavDuration(head, size);
  return parsed ?? mediaDurationSec(filePath);
}

/** The duration in a WAV header, or null when it cannot be read from it. `fileSize` bounds a data chunk's size. */
export function parseWavDuration(head: Buffer, fileSize: number): number | null {
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE')
    return null;
  let byteRate = 0;
  for (let at = 12; at + 8 <= head.length;) {
    const id = head.toString('ascii', at, at + 4);
    const len = head.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 16 <= head.length) {
      const format = head.readUInt16LE(at + 8);
      // 1: integer PCM, 3: float, 0xfffe: extensible (ffmpeg's choice for more than 2 channels or 24-bit).
      if (format !== 1 && format !== 3 && format !== 0xfffe) return null;
      byteRate = head.readUInt32LE(at + 16);
    } else if (id === 'data') {
      if (!byteRate) return null;
      const dataLen = Math.min(len, fileSize - (at + 8));
      if (len === 0 || len === 0xffffffff || dataLen <= 0) return null;
      return dataLen / byteRate;
    }
    at += 8 + len + (len % 2);
  }
  return null;
}

/**
 * What ffmpeg reports (on stderr) after running the audio filter `filter` over a local file, decoding it to nowhere:
 * how volumedetect and silencedetect are read.
 */
export async function audioFilterReport(
  filePath: string,
  filter: string,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<string> {
  const args = ['-hide_banner', '-nostats', '-protocol_whitelist', 'file', '-i', filePath, '-af', filter];
  const { stderr } = await runProcess(FFMPEG, [...args, '-f', 'null', '-'], opts);
  return stderr;
}

/** Peak absolute sample (0..1) of an audio file, via ffmpeg's volumedetect; used to prove speech is not silence. */
export async function audioPeak(filePath: string): Promise<number> {
  const stderr = await audioFilterReport(filePath, 'volumedetect', { timeoutMs: 30_000 });
  const m = /max_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!m || m[1] === '-inf') return 0;
  return Math.pow(10, Number(m[1]) / 20);
}
