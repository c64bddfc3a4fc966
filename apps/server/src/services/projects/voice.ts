import path from 'node:path';
import { VOICE_OVER_LIMITS, VoiceSource, type VoiceOver } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import type { AudioRules } from '../video/index.ts';

/**
 * A project's own voice-over (docs/product.md#own-voice-over): the user's recording speaks the script instead of
 * the generated voice. One checked, re-encoded file per project; the video follows its length.
 */

const minutes = VOICE_OVER_LIMITS.maxDurationSec / 60;
export const VOICE_OVER_MESSAGES = {
  wrongType: 'The recording must be an MP3, WAV or M4A file',
  broken: 'This recording cannot be read',
  tooLarge: `Recordings can be at most ${VOICE_OVER_LIMITS.maxBytes / 1024 / 1024}MB`,
  tooLong: `The recording can be at most ${minutes} minutes long`,
  tooShort: `The recording must be at least ${VOICE_OVER_LIMITS.minDurationSec} second long`,
  noRecording: 'Upload your recording before choosing it as the voice',
} as const;

export const VOICE_OVER_RULES: AudioRules = {
  maxBytes: VOICE_OVER_LIMITS.maxBytes,
  minDurationSec: VOICE_OVER_LIMITS.minDurationSec,
  maxDurationSec: VOICE_OVER_LIMITS.maxDurationSec,
  messages: VOICE_OVER_MESSAGES,
  name: 'voice-over',
  // Speech is one voice: mono keeps the file small and the alignment reads it as it is mixed.
  channels: 1,
};

export interface VoiceOverRow {
  voice_source: string;
  voice_over_key: string | null;
  voice_over_duration_sec: number | string | null;
}

/** The API's view of a project's voice: who speaks, and the recording (URL and length) if there is one. */
export function voiceOverOf(row: VoiceOverRow): { voice_source: VoiceSource; voice_over: VoiceOver | null } {
  const voiceOver = row.voice_over_key
    ? { url: `static/${row.voice_over_key}`, duration_sec: Number(row.voice_over_duration_sec ?? 0) }
    : null;
  const source = VoiceSource.safeParse(row.voice_source);
  return { voice_source: source.success && voiceOver ? source.data : 'generated', voice_over: voiceOver };
}

/**
 * The recording on local disk for a render, or null when the project uses the generated voice. A project set to
 * its own recording whose file has gone is an error the user must fix, never a silent switch to another voice.
 */
export async function localVoiceOver(
  jc: { app: Pick<AppContext, 'files'>; workDir: string },
  row: VoiceOverRow,
): Promise<{ path: string } | { missing: true } | null> {
  if (voiceOverOf(row).voice_source !== 'own' || !row.voice_over_key) return null;
  if (!(await jc.app.files.exists(row.voice_over_key))) return { missing: true };
  const local = path.join(jc.workDir, 'voice-over.m4a');
  await jc.app.files.toLocalFile(row.voice_over_key, local);
  return { path: local };
}
