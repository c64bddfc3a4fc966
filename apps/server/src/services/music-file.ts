import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MUSIC_LIMITS } from '@hookreel/contracts';
import { FFMPEG, ffprobe, runProcess } from '@hookreel/engine';
import { HttpError, payloadTooLarge, unprocessable } from '../errors.ts';
import type { AppContext } from '../context.ts';

/** The music types we accept, decided by their first bytes, never by the name or the client's MIME type. */
export type AudioType = 'mp3' | 'wav' | 'm4a';

export const MUSIC_MESSAGES = {
  wrongType: 'Music must be an MP3, WAV or M4A file',
  broken: 'This music file cannot be read',
  tooLarge: 'Music files can be at most 20MB',
  tooLong: `Music can be at most ${MUSIC_LIMITS.maxDurationSec / 60} minutes long`,
} as const;

/** MP3 (ID3 tag or an MPEG audio frame sync), WAV (RIFF/WAVE) or M4A (an MP4 `ftyp` box); null otherwise. */
export function sniffAudioType(buf: Uint8Array): AudioType | null {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WAVE') return 'wav';
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp') return 'm4a';
  if (b.length >= 3 && b.toString('latin1', 0, 3) === 'ID3') return 'mp3';
  // MPEG-1/2 layer III frame header: 11 sync bits, then a layer field of 01.
  if (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0 && (b[1]! & 0x06) === 0x02) return 'mp3';
  return null;
}

const FORMAT_OF: Record<AudioType, RegExp> = { mp3: /^mp3$/, wav: /^wav$/, m4a: /(^|,)(mov|mp4|m4a)(,|$)/ };
const CODECS = /^(mp3|aac|alac|pcm_[a-z0-9]+)$/;

/**
 * Turns untrusted bytes into a clean music bed: type by magic bytes, the 20 MB cap, then ffprobe must agree on
 * the container and find an audio codec we know, a duration within limits and no video except cover art. The
 * audio is re-encoded (AAC, 48 kHz stereo, all metadata and pictures dropped) and only that is stored.
 * Throws HttpError 4xx for anything else; nothing is written then.
 */
export async function storeUploadedMusic(
  ctx: Pick<AppContext, 'files'>,
  input: { userId: number; area: 'projects' | 'hook-packs'; buffer: Buffer },
): Promise<{ key: string }> {
  if (input.buffer.length > MUSIC_LIMITS.maxBytes) throw payloadTooLarge(MUSIC_MESSAGES.tooLarge);
  if (input.buffer.length === 0) throw unprocessable(MUSIC_MESSAGES.broken);
  const type = sniffAudioType(input.buffer);
  if (!type) throw new HttpError(415, MUSIC_MESSAGES.wrongType);
  if (!Number.isSafeInteger(input.userId) || input.userId <= 0) throw new Error('storeUploadedMusic: bad userId');
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-music-'));
  try {
    const raw = path.join(dir, `in.${type}`);
    await writeFile(raw, input.buffer);
    let probe: Awaited<ReturnType<typeof ffprobe>>;
    try {
      probe = await ffprobe(raw);
    } catch {
      throw unprocessable(MUSIC_MESSAGES.broken);
    }
    if (!FORMAT_OF[type].test(probe.format.format_name ?? '')) throw new HttpError(415, MUSIC_MESSAGES.wrongType);
    const audio = probe.streams.filter((s) => s.codec_type === 'audio');
    const video = probe.streams.filter((s) => s.codec_type === 'video');
    // Cover art in an MP3 or M4A shows up as a one-picture video stream; anything more is a video file.
    if (
      audio.length !== 1 ||
      !CODECS.test(audio[0]!.codec_name) ||
      video.some((v) => v.codec_name !== 'mjpeg' && v.codec_name !== 'png')
    )
      throw new HttpError(415, MUSIC_MESSAGES.wrongType);
    const duration = Number(probe.format.duration ?? audio[0]!.duration ?? NaN);
    if (!Number.isFinite(duration) || duration < 0.5) throw unprocessable(MUSIC_MESSAGES.broken);
    if (duration > MUSIC_LIMITS.maxDurationSec) throw unprocessable(MUSIC_MESSAGES.tooLong);
    const clean = path.join(dir, 'clean.m4a');
    try {
      await runProcess(
        FFMPEG,
        [
          ...['-y', '-v', 'error', '-protocol_whitelist', 'file', '-i', raw, '-map', '0:a:0', '-map_metadata', '-1'],
          ...['-vn', '-c:a', 'aac', '-b:a', '160k', '-ar', '48000', '-ac', '2', '-movflags', '+faststart', clean],
        ],
        { timeoutMs: 120_000 },
      );
    } catch {
      throw unprocessable(MUSIC_MESSAGES.broken);
    }
    const key = `users/${input.userId}/${input.area}/music-${randomUUID()}.m4a`;
    await ctx.files.put(key, await readFile(clean), 'audio/mp4');
    return { key };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
