import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WordTiming } from '../types.ts';
import type { VoiceRequest, VoiceResult, VoiceSynthesizer } from './index.ts';

/**
 * Where spoken lines are kept for reuse: a hook said by the same voice is synthesised once, and every other video
 * that says it (another call to action, another actor with the same voice) reads the stored take. The engine
 * does not care where it lives: a folder (bench, tests) or the server's file storage.
 */
export interface VoiceStore {
  /** The take stored under `key`, copied into `outDir`; null when there is none. */
  load(key: string, outDir: string): Promise<VoiceResult | null>;
  save(key: string, voice: VoiceResult): Promise<void>;
}

/** What a stored take keeps beside its WAV. */
export interface StoredVoiceMeta {
  durationSec: number;
  words: WordTiming[];
  voice: string;
  /** The take's loudness, so a render reusing it levels it in one pass (absent in takes stored before it was kept). */
  loudnessLufs?: number | null;
}

/**
 * The key of a take: the words, how they are said (language, accent, gender, speed) and which synthesiser says
 * them (`voiceName`: provider and model), so a change of any of them never reuses a wrong take.
 */
export function voiceKey(req: VoiceRequest, voiceName: string): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        voiceName,
        req.text,
        req.language,
        req.accent,
        req.gender,
        req.speed ?? 1,
        // A chosen voice is part of the take; keys without one stay as they were.
        ...(req.voiceId ? [req.voiceId] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 24);
}

/**
 * `inner`, with each take stored and reused. A reused take bills nothing (no `usage`): the provider was paid once.
 * `onReuse` hears of each reuse, so callers can say so in their logs and benchmarks can count.
 */
export function sharedVoice(
  inner: VoiceSynthesizer,
  store: VoiceStore,
  options: { voiceName: string; onReuse?: (key: string) => void; onSynthesised?: (key: string) => void },
): VoiceSynthesizer {
  return {
    async synthesize(req, outDir, signal) {
      const key = voiceKey(req, options.voiceName);
      const stored = await store.load(key, outDir);
      if (stored) {
        options.onReuse?.(key);
        return stored;
      }
      const fresh = await inner.synthesize(req, outDir, signal);
      await store.save(key, fresh);
      options.onSynthesised?.(key);
      return fresh;
    },
  };
}

/** A VoiceStore in a local folder: `<key>.wav` and `<key>.json`, each written atomically. */
export function folderVoiceStore(dir: string): VoiceStore {
  return {
    async load(key, outDir) {
      const wav = path.join(dir, `${key}.wav`);
      const meta = path.join(dir, `${key}.json`);
      try {
        await stat(wav);
        const parsed = JSON.parse(await readFile(meta, 'utf8')) as StoredVoiceMeta;
        await mkdir(outDir, { recursive: true });
        const local = path.join(outDir, 'shared-voice.wav');
        await copyFile(wav, local);
        return {
          wavPath: local,
          durationSec: parsed.durationSec,
          words: parsed.words,
          voice: parsed.voice,
          loudnessLufs: parsed.loudnessLufs ?? null,
        };
      } catch {
        return null;
      }
    },
    async save(key, voice) {
      await mkdir(dir, { recursive: true });
      const tag = `${process.pid}.${Math.random().toString(36).slice(2)}`;
      const wavTmp = path.join(dir, `${key}.wav.${tag}.tmp`);
      const metaTmp = path.join(dir, `${key}.json.${tag}.tmp`);
      await copyFile(voice.wavPath, wavTmp);
      await rename(wavTmp, path.join(dir, `${key}.wav`));
      const meta: StoredVoiceMeta = {
        durationSec: voice.durationSec,
        words: voice.words,
        voice: voice.voice,
        loudnessLufs: voice.loudnessLufs ?? null,
      };
      await writeFile(metaTmp, JSON.stringify(meta));
      await rename(metaTmp, path.join(dir, `${key}.json`));
    },
  };
}
