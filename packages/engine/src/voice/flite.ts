import { createHash } from 'node:crypto';
import { access, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WordTiming } from '../types.ts';
import { produceAtomic } from '../util/files.ts';
import { runProcess } from '../util/process.ts';
import { parseFestivalTokens } from './festival.ts';

/** flite's compiled-in English voices (Debian's libflite1): clustergen rms, awb and slt, and the diphone kal16. */
export const FLITE_VOICES = ['rms', 'awb', 'slt', 'kal16'] as const;
export type FliteVoice = (typeof FLITE_VOICES)[number];

const SOURCE = fileURLToPath(new URL('../../native/flite-words.c', import.meta.url));
const LIBS = [
  ...FLITE_VOICES.map((v) => `-lflite_cmu_us_${v}`),
  ...['-lflite_usenglish', '-lflite_cmulex', '-lflite', '-lm'],
];

let helper: Promise<string | null> | null = null;

/**
 * The path of the `flite-words` helper (native/flite-words.c), built once per source version with the system's C
 * compiler against Debian's flite1-dev (scripts/ensure-system.sh installs both); null when it cannot be built, and
 * English then falls back to the next voice. flite's CLI prints segment times or words, never which segments a
 * word spans; the helper reads that from flite's own utterance, so the timings are as exact as festival's.
 */
export function fliteHelper(): Promise<string | null> {
  helper ??= (async () => {
    try {
      const source = await readFile(SOURCE);
      const hash = createHash('sha256').update(source).update(LIBS.join(' ')).digest('hex').slice(0, 12);
      const dir = process.env.HOOKREEL_NATIVE_DIR ?? path.join(tmpdir(), 'hookreel-native');
      const bin = path.join(dir, `flite-words-${hash}`);
      try {
        await access(bin);
        return bin;
      } catch {
        /* not built yet */
      }
      await produceAtomic(bin, (tmp) =>
        runProcess('cc', ['-O2', '-o', tmp, SOURCE, ...LIBS], { timeoutMs: 120_000 }).then(() => undefined),
      );
      return bin;
    } catch {
      return null;
    }
  })();
  return helper;
}

/** Speech through a flite voice; the token timings come from flite's own segments (see fliteHelper). */
export async function fliteSpeak(
  text: string,
  voice: FliteVoice,
  outWav: string,
  signal?: AbortSignal,
): Promise<WordTiming[]> {
  const bin = await fliteHelper();
  if (!bin) throw new Error('flite is not available (run scripts/ensure-system.sh)');
  const { stdout } = await runProcess(bin, [voice, outWav], { input: text, timeoutMs: 120_000, signal });
  return parseFestivalTokens(stdout);
}
