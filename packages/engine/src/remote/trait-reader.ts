import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGE_BANDS,
  BEARDS,
  CLOTHING_COLOURS,
  GARMENTS,
  HAIR_COLOURS,
  HAIR_STYLES,
  SKIN_TONES,
  type ActorTraits,
} from '../actors/traits.ts';
import { chatCompletion, type OpenAIConfig } from './openai.ts';

export type StatedTraits = Partial<{ [K in keyof ActorTraits]: ActorTraits[K] | null }>;

/** Reads a character description into drawable traits (a language model); the rule-based reader is the fallback. */
export interface TraitReader {
  read(description: string, signal?: AbortSignal): Promise<StatedTraits>;
}

export function traitReaderPrompt(description: string): string {
  return [
    'You read a short description of a person for an illustrated video ad character and answer with JSON only.',
    `Description: "${description.trim()}".`,
    'Keys (use null when the description does not say or clearly imply it):',
    `gender: "male"|"female"; age: ${AGE_BANDS.map((a) => `"${a}"`).join('|')};`,
    `skin: ${SKIN_TONES.map((a) => `"${a}"`).join('|')}; hairColour: ${HAIR_COLOURS.map((a) => `"${a}"`).join('|')};`,
    `hairStyle: ${HAIR_STYLES.map((a) => `"${a}"`).join('|')}; glasses: true|false; beard: ${BEARDS.map((a) => `"${a}"`).join('|')};`,
    `garment: ${GARMENTS.map((a) => `"${a}"`).join('|')}; clothing: ${Object.keys(CLOTHING_COLOURS)
      .map((a) => `"${a}"`)
      .join('|')}.`,
    'Example: {"gender":"female","age":"60s+","skin":null,"hairColour":"grey","hairStyle":null,"glasses":true,"beard":"none","garment":null,"clothing":null}',
  ].join(' ');
}

const oneOf = <T extends string>(list: readonly T[], v: unknown): T | null =>
  typeof v === 'string' && (list as readonly string[]).includes(v.trim().toLowerCase())
    ? (v.trim().toLowerCase() as T)
    : null;

/** The traits in a model's answer (bare or fenced JSON); anything outside our lists is dropped, not guessed. */
export function parseTraits(text: string): StatedTraits {
  const m = /\{[\s\S]*\}/.exec(text);
  if (!m) return {};
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(m[0]) as Record<string, unknown>;
  } catch {
    return {};
  }
  const colour = typeof o.clothing === 'string' ? CLOTHING_COLOURS[o.clothing.trim().toLowerCase()] : undefined;
  const out: StatedTraits = {
    gender: oneOf(['male', 'female'] as const, o.gender),
    age: oneOf(AGE_BANDS, o.age),
    skin: oneOf(SKIN_TONES, o.skin),
    hairColour: oneOf(HAIR_COLOURS, o.hairColour),
    hairStyle: oneOf(HAIR_STYLES, o.hairStyle),
    glasses: typeof o.glasses === 'boolean' ? o.glasses : null,
    beard: oneOf(BEARDS, o.beard),
    garment: oneOf(GARMENTS, o.garment),
    clothing: colour ?? null,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== null)) as StatedTraits;
}

/**
 * Traits from an OpenAI-compatible chat model (OPENAI_TEXT_MODEL). Answers are kept on disk by model and
 * description: a character's portrait, previews and videos are drawn in different jobs and must show the same
 * person, which a model asked twice does not promise.
 */
export class OpenAITraitReader implements TraitReader {
  constructor(
    readonly config: OpenAIConfig & { textModel: string },
    readonly cacheDir = path.join(tmpdir(), 'hookreel-trait-cache'),
  ) {}

  async read(description: string, signal?: AbortSignal): Promise<StatedTraits> {
    const key = createHash('sha256')
      .update(`${this.config.baseUrl}|${this.config.textModel}|${description.trim().toLowerCase()}`)
      .digest('hex')
      .slice(0, 32);
    const file = path.join(this.cacheDir, `${key}.json`);
    try {
      return JSON.parse(await readFile(file, 'utf8')) as StatedTraits;
    } catch {
      /* not read yet */
    }
    const text = await chatCompletion(
      this.config,
      {
        // No temperature: reasoning models (GPT-5, o-series) refuse any but the default, and the disk cache below
        // already gives every job the same answer for a description.
        model: this.config.textModel,
        messages: [{ role: 'user', content: traitReaderPrompt(description) }],
      },
      60_000,
      signal,
    );
    const traits = parseTraits(text);
    await mkdir(this.cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(traits));
    await rename(tmp, file);
    return traits;
  }
}
