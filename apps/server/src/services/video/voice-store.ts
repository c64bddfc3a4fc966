import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { JobContext } from '../../jobs/definition.ts';
import type { StoredVoiceMeta, VoiceStore } from '../../media/values.ts';

/** A stored take's meta as the engine writes it (StoredVoiceMeta), checked when read back. */
const StoredVoiceMetaSchema = z.object({
  durationSec: z.number(),
  words: z.array(z.object({ word: z.string(), startSec: z.number(), endSec: z.number() })),
  voice: z.string(),
  loudnessLufs: z.number().nullable().optional(),
}) satisfies z.ZodType<StoredVoiceMeta>;

/**
 * Spoken takes kept in file storage under `prefix` (`voice-<key>.wav|json`). Also a Realistic project job's paid
 * voice (`users/<id>/paid/job-<id>`): a retry of the job reuses the take it bought.
 */
export function filesVoiceStore(jc: JobContext, prefix: string): VoiceStore {
  const keyOf = (key: string, ext: string) => `${prefix}/voice-${key}.${ext}`;
  return {
    async load(key, outDir) {
      if (!(await jc.app.files.exists(keyOf(key, 'json')))) return null;
      await mkdir(outDir, { recursive: true });
      const metaPath = path.join(outDir, 'shared-voice.json');
      const wavPath = path.join(outDir, 'shared-voice.wav');
      try {
        await jc.app.files.toLocalFile(keyOf(key, 'json'), metaPath);
        await jc.app.files.toLocalFile(keyOf(key, 'wav'), wavPath);
        const meta = StoredVoiceMetaSchema.parse(JSON.parse(await readFile(metaPath, 'utf8')));
        return {
          wavPath,
          durationSec: meta.durationSec,
          words: meta.words,
          voice: meta.voice,
          loudnessLufs: meta.loudnessLufs ?? null,
        };
      } catch {
        return null;
      }
    },
    async save(key, voice) {
      await jc.app.files.putFile(keyOf(key, 'wav'), voice.wavPath, 'audio/wav');
      const metaPath = path.join(jc.workDir, `voice-${key}.json`);
      const meta: StoredVoiceMeta = {
        durationSec: voice.durationSec,
        words: voice.words,
        voice: voice.voice,
        loudnessLufs: voice.loudnessLufs ?? null,
      };
      await writeFile(metaPath, JSON.stringify(meta));
      await jc.app.files.putFile(keyOf(key, 'json'), metaPath, 'application/json');
    },
  };
}
