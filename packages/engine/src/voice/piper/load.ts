import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ort, type InferenceSession } from './ort.ts';
import type { Accent, Gender, Language } from '../../types.ts';
import type { VoiceInfo } from '../catalog.ts';
import { espeakHasVoice, phonemesToIds, tokenPhonemes, type PhonemeIdMap } from './phonemize.ts';
import { PiperVoice, type PiperConfig } from './voice.ts';

/** A voice file that was not loaded, and why (said once, at start-up). */
export interface RefusedVoice {
  file: string;
  reason: string;
}

/** Piper voices rank above every built-in voice (decision 211). */
export const PIPER_RANK = 100;

const LANGUAGE_CODES: Record<string, Language> = {
  en: 'english',
  es: 'spanish',
  fr: 'french',
  de: 'german',
  pt: 'portuguese',
  nl: 'dutch',
};

/** The accent of a Piper voice's region, in Hookreel's accents (Latin American Spanish and Brazilian Portuguese are `american`, as for eSpeak). */
function accentOf(language: Language, region: string): Accent {
  const r = region.toUpperCase();
  if (language === 'english')
    return r === 'GB' ? 'british' : r === 'AU' ? 'australian' : r === 'IN' ? 'indian' : 'american';
  if (language === 'spanish') return r === 'ES' ? 'neutral' : 'american';
  if (language === 'portuguese') return r === 'BR' ? 'american' : 'neutral';
  return 'neutral';
}

/**
 * The gender of well-known voices of Piper's catalogue, by speaker name, so they need no sidecar. Any other
 * voice says its gender in `<model>.voice.json` (`{"gender": "female"}`).
 */
const KNOWN_GENDERS: Record<string, Gender> = {
  amy: 'female',
  kristin: 'female',
  lessac: 'female',
  ljspeech: 'female',
  hfc_female: 'female',
  alba: 'female',
  jenny_dioco: 'female',
  cori: 'female',
  siwis: 'female',
  eva_k: 'female',
  kerstin: 'female',
  ramona: 'female',
  ryan: 'male',
  joe: 'male',
  john: 'male',
  kusal: 'male',
  norman: 'male',
  hfc_male: 'male',
  alan: 'male',
  northern_english_male: 'male',
  davefx: 'male',
  carlfm: 'male',
  thorsten: 'male',
  karlsson: 'male',
  gilles: 'male',
  tom: 'male',
  faber: 'male',
  cadu: 'male',
  jeff: 'male',
};

/** `<lang>_<REGION>-<speaker>-<quality>`, Piper's file names. */
const PIPER_NAME = /^([a-z]{2,3})_([A-Za-z]{2})-(.+)-(x_low|low|medium|high)$/;

/**
 * Loads every Piper voice in `dir` (`<name>.onnx` beside `<name>.onnx.json`, optionally `<name>.voice.json` with
 * `gender`, `label`, `licence`). Each is checked fully here — its config, its language, eSpeak's phonemes for it,
 * the model opening in onnxruntime with Piper's inputs, and one short sentence said with the expected output
 * shape — so a missing, corrupt or other-shaped file is refused now, with a reason, and never fails a render.
 * A folder that does not exist holds no voices.
 */
export async function loadPiperVoices(dir: string): Promise<{ voices: PiperVoice[]; refused: RefusedVoice[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { voices: [], refused: [] };
  }
  const voices: PiperVoice[] = [];
  const refused: RefusedVoice[] = [];
  const models = names.filter((n) => n.endsWith('.onnx')).sort();
  for (const n of names.filter((n) => n.endsWith('.onnx.json')))
    if (!names.includes(n.slice(0, -'.json'.length)))
      refused.push({ file: path.join(dir, n), reason: `its model ${n.slice(0, -'.json'.length)} is missing` });
  for (const model of models) {
    const file = path.join(dir, model);
    try {
      voices.push(await loadPiperVoice(file));
    } catch (e) {
      refused.push({ file, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return { voices, refused };
}

/** One voice (see loadPiperVoices); throws with the reason it cannot be used. */
export async function loadPiperVoice(modelPath: string): Promise<PiperVoice> {
  const name = path.basename(modelPath, '.onnx');
  let raw: string;
  try {
    raw = await readFile(`${modelPath}.json`, 'utf8');
  } catch {
    throw new Error(`its config ${name}.onnx.json is missing (Piper voices come as a .onnx and a .onnx.json)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`its config ${name}.onnx.json is not JSON`);
  }
  const { config, language, region } = readConfig(json, name);
  const side = await readSidecar(modelPath);
  const speaker = PIPER_NAME.exec(name)?.[3] ?? name;
  const gender = side.gender ?? KNOWN_GENDERS[speaker];
  if (!gender)
    throw new Error(`its speaker's gender is not known: put {"gender": "female"} or "male" in ${name}.voice.json`);
  if (!(await espeakHasVoice(config.espeakVoice)))
    throw new Error(`eSpeak-NG has no voice "${config.espeakVoice}" for its phonemes`);

  let session: InferenceSession;
  try {
    session = await ort.InferenceSession.create(modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  } catch (e) {
    throw new Error(`onnxruntime cannot open the model (corrupt or not ONNX): ${firstLine(e)}`);
  }
  const needed = ['input', 'input_lengths', 'scales', ...(config.numSpeakers > 1 ? ['sid'] : [])];
  const missing = needed.filter((i) => !session.inputNames.includes(i));
  if (missing.length > 0)
    throw new Error(
      `the model is not a Piper voice: it lacks the input(s) ${missing.join(', ')} (it has ${session.inputNames.join(', ')})`,
    );

  const accent = accentOf(language, region);
  const info: VoiceInfo = {
    id: `piper:${name}`,
    engine: 'piper',
    label: side.label ?? `${speaker.replace(/_/g, ' ')} (${region ? `${language} ${region}` : language}, Piper)`,
    language,
    accent,
    gender,
    rank: PIPER_RANK,
    licence: side.licence ?? 'as its MODEL_CARD says (not given in a .voice.json)',
  };
  const voice = new PiperVoice(info, session, config);
  // One short sentence through the whole path, so a model of another shape is refused now.
  try {
    const tokens = ['Hello.'];
    const ids = phonemesToIds(tokens, await tokenPhonemes(tokens, config.espeakVoice), config.phonemeIdMap).ids;
    const out = await voice.run(ids);
    if (!(out.audio instanceof Float32Array) || out.audio.length === 0) throw new Error('no float audio');
    if (voice.timing === 'durations' && !out.frames)
      throw new Error(`its second output is not one duration per phoneme id (${ids.length})`);
  } catch (e) {
    throw new Error(`the model does not run as a Piper voice: ${firstLine(e)}`);
  }
  return voice;
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 300);
}

/** The fields of Piper's config the runner uses, checked. */
function readConfig(json: unknown, name: string): { config: PiperConfig; language: Language; region: string } {
  const c = (json ?? {}) as Record<string, unknown>;
  const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  const sampleRate = Number(obj(c.audio).sample_rate);
  if (!Number.isInteger(sampleRate) || sampleRate < 8000 || sampleRate > 48000)
    throw new Error(`its config has no audio.sample_rate between 8000 and 48000`);
  if (c.phoneme_type !== undefined && c.phoneme_type !== 'espeak')
    throw new Error(`its phonemes are "${String(c.phoneme_type)}"; only eSpeak-phoneme voices are supported`);
  const espeakVoice = obj(c.espeak).voice;
  if (typeof espeakVoice !== 'string' || !espeakVoice) throw new Error('its config has no espeak.voice');
  const map = obj(c.phoneme_id_map);
  const phonemeIdMap: PhonemeIdMap = {};
  for (const [k, v] of Object.entries(map)) {
    if (!Array.isArray(v) || !v.every((n) => Number.isInteger(n) && n >= 0))
      throw new Error(`its phoneme_id_map entry "${k}" is not a list of ids`);
    phonemeIdMap[k] = v as number[];
  }
  for (const s of ['^', '_', '$'])
    if (!phonemeIdMap[s]) throw new Error(`its phoneme_id_map lacks "${s}" (Piper's start, pad and end)`);
  const lang = obj(c.language);
  const code = String(lang.family ?? lang.code ?? espeakVoice)
    .split(/[-_]/)[0]!
    .toLowerCase();
  const language = LANGUAGE_CODES[code];
  if (!language)
    throw new Error(`its language "${code}" is not one Hookreel speaks (${Object.values(LANGUAGE_CODES).join(', ')})`);
  const region = String(lang.region ?? PIPER_NAME.exec(name)?.[2] ?? '');
  const inference = obj(c.inference);
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  return {
    config: {
      sampleRate,
      espeakVoice,
      phonemeIdMap,
      noiseScale: num(inference.noise_scale, 0.667),
      lengthScale: num(inference.length_scale, 1),
      noiseW: num(inference.noise_w, 0.8),
      numSpeakers: num(c.num_speakers, 1),
      hopLength: num(c.hop_length, 256),
    },
    language,
    region,
  };
}

/** `<model>.voice.json`: what Piper's config does not say. Absent is fine; unreadable is refused. */
async function readSidecar(modelPath: string): Promise<{ gender?: Gender; label?: string; licence?: string }> {
  const file = `${modelPath.slice(0, -'.onnx'.length)}.voice.json`;
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new Error(`${path.basename(file)} is not JSON`);
  }
  if (v.gender !== undefined && v.gender !== 'male' && v.gender !== 'female')
    throw new Error(`${path.basename(file)}: gender must be "male" or "female"`);
  const str = (x: unknown) => (typeof x === 'string' && x.trim() ? x.trim() : undefined);
  return {
    ...(v.gender ? { gender: v.gender as Gender } : {}),
    ...(str(v.label) ? { label: str(v.label)! } : {}),
    ...(str(v.licence ?? v.license) ? { licence: str(v.licence ?? v.license)! } : {}),
  };
}
