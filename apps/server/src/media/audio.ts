import { FFMPEG, ffprobe, runProcess } from '@hookreel/engine';
import type { AudioProbe } from './port.ts';

/** What ffprobe says of a local file: its container, its streams and the declared length. */
export async function probeAudio(filePath: string): Promise<AudioProbe> {
  const probe = await ffprobe(filePath);
  return {
    formatName: probe.format.format_name ?? '',
    durationSec: probe.format.duration === undefined ? null : Number(probe.format.duration),
    streams: probe.streams.map((s) => ({
      type: s.codec_type,
      codec: s.codec_name,
      durationSec: s.duration === undefined ? null : Number(s.duration),
    })),
  };
}

/**
 * The seconds of audio the file really holds, up to `capSec` + 1: its first audio stream is decoded and thrown
 * away (`-f null`), stopping one second past the cap. A header can claim anything; the samples cannot, and the
 * work is bounded by the cap however long the file is (issue #33: a "60 s" MP3 holding 2 h). NaN when nothing
 * could be decoded.
 */
export async function decodedAudioSec(file: string, capSec: number, timeoutMs = 30_000): Promise<number> {
  const { stdout } = await runProcess(
    FFMPEG,
    [
      ...['-v', 'fatal', '-nostdin', '-protocol_whitelist', 'file', '-i', file, '-map', '0:a:0', '-vn'],
      ...['-t', `${capSec + 1}`, '-f', 'null', '-progress', 'pipe:1', '-nostats', '-'],
    ],
    { timeoutMs },
  );
  const last = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)].at(-1);
  return last ? Number(last[1]) / 1e6 : Number.NaN;
}

/**
 * The first audio stream re-encoded to AAC 48 kHz with every tag and picture dropped (M4A, fast start), never
 * longer than `maxSec` + 1 when given.
 */
export async function cleanAudio(input: {
  inPath: string;
  outPath: string;
  channels: 1 | 2;
  maxSec?: number;
}): Promise<void> {
  await runProcess(
    FFMPEG,
    [
      ...[
        '-y',
        '-v',
        'error',
        '-protocol_whitelist',
        'file',
        '-i',
        input.inPath,
        '-map',
        '0:a:0',
        '-map_metadata',
        '-1',
      ],
      ...(input.maxSec === undefined ? [] : ['-t', `${input.maxSec + 1}`]),
      ...['-vn', '-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', `${input.channels}`],
      ...['-movflags', '+faststart', input.outPath],
    ],
    { timeoutMs: 120_000 },
  );
}
