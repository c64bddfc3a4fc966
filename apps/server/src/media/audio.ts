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

/** The first audio stream re-encoded to AAC 48 kHz with every tag and picture dropped (M4A, fast start). */
export async function cleanAudio(input: { inPath: string; outPath: string; channels: 1 | 2 }): Promise<void> {
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
      ...['-vn', '-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', `${input.channels}`],
      ...['-movflags', '+faststart', input.outPath],
    ],
    { timeoutMs: 120_000 },
  );
}
