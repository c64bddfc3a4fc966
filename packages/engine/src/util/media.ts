import { runProcess } from './process.ts';

export const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

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

/** Peak absolute sample (0..1) of an audio file, via ffmpeg's volumedetect; used to prove speech is not silence. */
export async function audioPeak(filePath: string): Promise<number> {
  const { stderr } = await runProcess(
    FFMPEG,
    [
      '-hide_banner',
      '-nostats',
      '-protocol_whitelist',
      'file',
      '-i',
      filePath,
      '-af',
      'volumedetect',
      '-f',
      'null',
      '-',
    ],
    { timeoutMs: 30_000 },
  );
  const m = /max_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!m || m[1] === '-inf') return 0;
  return Math.pow(10, Number(m[1]) / 20);
}
