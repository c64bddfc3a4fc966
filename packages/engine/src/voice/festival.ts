import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WordTiming } from '../types.ts';
import { runProcess } from '../util/process.ts';

export const FESTIVAL_VOICES = {
  femaleAmerican: 'cmu_us_slt_arctic_hts',
  maleAmerican: 'kal_diphone',
  maleBritish: 'rab_diphone',
} as const;
export type FestivalVoice = (typeof FESTIVAL_VOICES)[keyof typeof FESTIVAL_VOICES];

const schemeString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * English speech through festival. The Scheme script synthesises the text, saves the wave and prints, for each
 * text token (so "7" stays "7" in captions although it is spoken as "seven"), the start of its first word and
 * the end of its last.
 */
export async function festivalSpeak(
  text: string,
  voice: FestivalVoice,
  outWav: string,
  signal?: AbortSignal,
): Promise<WordTiming[]> {
  const script = path.join(path.dirname(outWav), `${path.basename(outWav, '.wav')}.scm`);
  await writeFile(
    script,
    `(voice_${voice})
(set! utt1 (Utterance Text ${schemeString(text)}))
(utt.synth utt1)
(utt.save.wave utt1 ${schemeString(outWav)} 'riff)
(mapcar
  (lambda (tok)
    (let ((ws (item.daughters tok)))
      (if ws
        (format t "T\\t%s\\t%s\\t%s\\t%f\\t%f\\n"
          (item.feat tok "prepunctuation") (item.name tok) (item.feat tok "punc")
          (item.feat (car ws) "word_start") (item.feat (car (last ws)) "word_end")))))
  (utt.relation.items utt1 'Token))
`,
  );
  const { stdout } = await runProcess('festival', ['-b', script], { timeoutMs: 120_000, signal });
  return parseFestivalTokens(stdout);
}

/** Parses the `T\tpre\tname\tpunc\tstart\tend` lines; festival prints 0 for an absent punctuation feature. */
export function parseFestivalTokens(stdout: string): WordTiming[] {
  const out: WordTiming[] = [];
  for (const line of stdout.split('\n')) {
    const f = line.split('\t');
    if (f[0] !== 'T' || f.length < 6) continue;
    const pre = f[1] === '0' ? '' : (f[1] ?? '');
    const punc = f[3] === '0' ? '' : (f[3] ?? '');
    const startSec = Number(f[4]);
    const endSec = Number(f[5]);
    if (!Number.isFinite(startSec) || !Number.isFinite(endSec)) continue;
    out.push({ word: `${pre}${f[2]}${punc}`, startSec, endSec: Math.max(endSec, startSec + 0.05) });
  }
  return out;
}
