import { MUSIC_LIMITS } from '@hookreel/contracts';
import { readHead } from './image-file';

/** MP3 (ID3 tag or an MPEG audio frame sync), WAV (RIFF/WAVE) or M4A (an MP4 `ftyp` box): the server's test. */
export function sniffAudio(head: Uint8Array): 'mp3' | 'wav' | 'm4a' | null {
  const at = (i: number) => head[i] ?? -1;
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (head.length >= 12 && ascii(4, 8) === 'ftyp') return 'm4a';
  if (head.length >= 3 && ascii(0, 3) === 'ID3') return 'mp3';
  if (at(0) === 0xff && (at(1) & 0xe0) === 0xe0 && (at(1) & 0x06) === 0x02) return 'mp3';
  return null;
}

export const MUSIC_FILE_MESSAGES = {
  wrongType: 'Music must be an MP3, WAV or M4A file',
  tooLarge: `Music files can be at most ${MUSIC_LIMITS.maxBytes / 1024 / 1024}MB`,
} as const;

/**
 * Why the server would refuse this file as a music bed, or null when its size and first bytes pass (the server
 * also reads it with ffprobe and caps its length). Checked before sending, so a 40 MB WAV is not uploaded only
 * to be refused.
 */
export async function musicFileProblem(file: Blob): Promise<string | null> {
  if (file.size > MUSIC_LIMITS.maxBytes) return MUSIC_FILE_MESSAGES.tooLarge;
  const head = await readHead(file.slice(0, 12));
  return sniffAudio(head) ? null : MUSIC_FILE_MESSAGES.wrongType;
}
