import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MUSIC_LIMITS } from '@hookreel/contracts';
import { HttpError, payloadTooLarge, unprocessable } from '../../errors.ts';
import type { AppContext } from '../../context.ts';
import type { AudioProbe } from '../../media/port.ts';
import type { UploadedFile } from '../../uploads/index.ts';
import { withUploadDir } from '../../jobs/work-dirs.ts';

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

/** What an audio upload is checked against, and what it is told when it fails. */
export interface AudioRules {
  maxBytes: number;
  minDurationSec: number;
  maxDurationSec: number;
  messages: { wrongType: string; broken: string; tooLarge: string; tooLong: string; tooShort?: string };
  /** The stored file's name before its random part, e.g. `music`. */
  name: string;
  /** Output channels: 2 for a music bed, 1 for speech. */
  channels: 1 | 2;
}

const MUSIC_RULES: AudioRules = {
  maxBytes: MUSIC_LIMITS.maxBytes,
  minDurationSec: 0.5,
  maxDurationSec: MUSIC_LIMITS.maxDurationSec,
  messages: MUSIC_MESSAGES,
  name: 'music',
  channels: 2,
};

/** The music file of a multipart upload, or 422 when the form sent none. */
export const musicFile = (file: UploadedFile | null): Buffer => {
  if (!file || file.fieldname !== 'music') throw unprocessable(MUSIC_MESSAGES.broken);
  return file.buffer;
};

/** Turns untrusted bytes into a clean music bed (see storeUploadedAudio). */
export async function storeUploadedMusic(
  ctx: Pick<AppContext, 'files' | 'media' | 'config'>,
  input: { userId: number; area: 'projects' | 'hook-packs'; buffer: Buffer },
): Promise<{ key: string }> {
  const { key } = await storeUploadedAudio(ctx, { ...input, rules: MUSIC_RULES });
  return { key };
}

/**
 * Turns untrusted bytes into clean audio: type by magic bytes, the size cap, then ffprobe must agree on
 * the container and find an audio codec we know, a declared duration within limits and no video except cover
 * art; then the length is measured by decoding (bounded, see the media port's decodedAudioSec) before any encoding. The audio is
 * re-encoded (AAC, 48 kHz, all metadata and pictures dropped, never past the cap) and only that is stored. The
 * checks run in DATA_DIR/work/upload-<uuid>, removed afterwards (decision 181).
 * Throws HttpError 4xx for anything else; nothing is written then.
 */
export async function storeUploadedAudio(
  ctx: Pick<AppContext, 'files' | 'media' | 'config'>,
  input: { userId: number; area: 'projects' | 'hook-packs'; buffer: Buffer; rules: AudioRules },
): Promise<{ key: string; durationSec: number }> {
  const { rules } = input;
  const messages = rules.messages;
  if (input.buffer.length > rules.maxBytes) throw payloadTooLarge(messages.tooLarge);
  if (input.buffer.length === 0) throw unprocessable(messages.broken);
  const type = sniffAudioType(input.buffer);
  if (!type) throw new HttpError(415, messages.wrongType);
  if (!Number.isSafeInteger(input.userId) || input.userId <= 0) throw new Error('storeUploadedAudio: bad userId');
  return withUploadDir(ctx, async (dir) => {
    const raw = path.join(dir, `in.${type}`);
    await writeFile(raw, input.buffer);
    let probe: AudioProbe;
    try {
      probe = await ctx.media.probeAudio(raw);
    } catch {
      throw unprocessable(messages.broken);
    }
    if (!FORMAT_OF[type].test(probe.formatName)) throw new HttpError(415, messages.wrongType);
    const audio = probe.streams.filter((s) => s.type === 'audio');
    const video = probe.streams.filter((s) => s.type === 'video');
    // Cover art in an MP3 or M4A shows up as a one-picture video stream; anything more is a video file.
    if (
      audio.length !== 1 ||
      !CODECS.test(audio[0]!.codec) ||
      video.some((v) => v.codec !== 'mjpeg' && v.codec !== 'png')
    )
      throw new HttpError(415, messages.wrongType);
    const declared = probe.durationSec ?? audio[0]!.durationSec ?? NaN;
    if (!Number.isFinite(declared) || declared < 0.5) throw unprocessable(messages.broken);
    if (declared > rules.maxDurationSec) throw unprocessable(messages.tooLong);
    if (declared < rules.minDurationSec) throw unprocessable(messages.tooShort ?? messages.broken);
    // The header may lie: what the stream holds is measured before the costly re-encode.
    let decoded: number;
    try {
      decoded = await ctx.media.decodedAudioSec(raw, rules.maxDurationSec);
    } catch {
      throw unprocessable(messages.broken);
    }
    if (!Number.isFinite(decoded) || decoded < 0.5) throw unprocessable(messages.broken);
    if (decoded > rules.maxDurationSec + 0.5) throw unprocessable(messages.tooLong);
    if (decoded < rules.minDurationSec) throw unprocessable(messages.tooShort ?? messages.broken);
    const clean = path.join(dir, 'clean.m4a');
    try {
      await ctx.media.cleanAudio({
        inPath: raw,
        outPath: clean,
        channels: rules.channels,
        maxSec: rules.maxDurationSec,
      });
    } catch {
      throw unprocessable(messages.broken);
    }
    // The header's duration can lie; what was stored is measured again (and is what the video will follow).
    let durationSec: number;
    try {
      durationSec = (await ctx.media.probeAudio(clean)).durationSec ?? NaN;
    } catch {
      throw unprocessable(messages.broken);
    }
    if (!Number.isFinite(durationSec) || durationSec < 0.5) throw unprocessable(messages.broken);
    if (durationSec > rules.maxDurationSec + 0.5) throw unprocessable(messages.tooLong);
    const key = `users/${input.userId}/${input.area}/${rules.name}-${randomUUID()}.m4a`;
    await ctx.files.put(key, await readFile(clean), 'audio/mp4');
    return { key, durationSec: Math.round(durationSec * 100) / 100 };
  });
}
