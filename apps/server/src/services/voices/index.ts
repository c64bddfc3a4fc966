import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { VOICE_MESSAGES, VOICE_SAMPLE_LINES, type Language, type VoiceList } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { unprocessable } from '../../errors.ts';

/** The address a voice's sample is played from (GET /api/voices/:id/sample). */
export const voiceSampleUrl = (id: string): string => `/api/voices/${encodeURIComponent(id)}/sample`;

/** GET /api/voices: every voice this server speaks with, best first, with its sample's address. */
export async function listVoices(ctx: AppContext): Promise<VoiceList> {
  const voices = await ctx.media.voices();
  return { voices: voices.map((v) => ({ ...v, sample_url: voiceSampleUrl(v.id) })) };
}

/**
 * The voice a project or pack keeps after a change (`undefined`: leave the stored one). A voice picked now must be
 * one this server has and must speak the language the change leaves; a language change drops a stored voice that
 * does not speak the new language, so the best voice of that language speaks instead of a silent fallback. A
 * stored voice the operator has since removed is left alone: renders fall back to the best voice.
 */
export async function voiceAfterChange(
  ctx: Pick<AppContext, 'media'>,
  change: { picked: string | null | undefined; stored: string | null; language: Language },
): Promise<string | null | undefined> {
  const id = change.picked === undefined ? change.stored : change.picked;
  if (!id) return change.picked;
  const voice = (await ctx.media.voices()).find((v) => v.id === id);
  if (change.picked === undefined) return voice && voice.language !== change.language ? null : undefined;
  if (!voice) throw unprocessable(VOICE_MESSAGES.unknown(id));
  if (voice.language !== change.language)
    throw unprocessable(VOICE_MESSAGES.otherLanguage(voice.label, change.language));
  return id;
}

const rendering = new Map<string, Promise<string | null>>();

/**
 * The WAV of a voice's short sample, rendered the first time anyone asks and kept under DATA_DIR (one file per
 * voice and sample line; a changed line or voice gets a new file). Concurrent first requests share one render.
 * Null when this server has no such voice.
 */
export async function voiceSample(ctx: AppContext, id: string): Promise<string | null> {
  const voice = (await ctx.media.voices()).find((v) => v.id === id);
  if (!voice) return null;
  const text = VOICE_SAMPLE_LINES[voice.language];
  const key = createHash('sha256')
    .update(JSON.stringify([id, text]))
    .digest('hex')
    .slice(0, 24);
  const file = path.join(ctx.config.voiceSamplesDir, `${key}.wav`);
  try {
    await stat(file);
    return file;
  } catch {
    /* not rendered yet */
  }
  let p = rendering.get(file);
  if (!p) {
    p = (async () => {
      await mkdir(ctx.config.voiceSamplesDir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      try {
        if (!(await ctx.media.renderVoiceSample(id, text, tmp))) return null;
        await rename(tmp, file);
        return file;
      } finally {
        await rm(tmp, { force: true });
        rendering.delete(file);
      }
    })();
    rendering.set(file, p);
  }
  return p;
}
