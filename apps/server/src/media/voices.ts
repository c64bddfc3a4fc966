import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Voice } from '@hookreel/contracts';
import { availableVoices, loadPiperVoices, localVoice, pickVoice, setOperatorVoices } from '@hookreel/engine';

/**
 * The operator's Piper voices in `dir`, loaded once at start-up into this process's engine (the API process for
 * samples, every worker for renders). A refused file is said here, with its reason, and never fails a render.
 */
export async function loadVoices(
  dir: string,
): Promise<{ loaded: Array<{ id: string; timing: string }>; refused: Array<{ file: string; reason: string }> }> {
  const { voices, refused } = await loadPiperVoices(dir);
  setOperatorVoices(voices);
  return { loaded: voices.map((v) => ({ id: v.info.id, timing: v.timing })), refused };
}

/** Every voice this process can speak with, best first, each marked when it is its kind's default. */
export async function listVoices(): Promise<Array<Omit<Voice, 'sample_url'>>> {
  const voices = await availableVoices();
  return voices.map((v) => ({
    id: v.id,
    engine: v.engine,
    label: v.label,
    language: v.language,
    accent: v.accent,
    gender: v.gender,
    licence: v.licence,
    default: pickVoice(voices, v)?.id === v.id,
  }));
}

/** Says `text` with voice `id` into a WAV at `outPath`; false when this server has no such voice. */
export async function renderVoiceSample(id: string, text: string, outPath: string): Promise<boolean> {
  const voice = (await availableVoices()).find((v) => v.id === id);
  if (!voice) return false;
  const work = await mkdtemp(path.join(tmpdir(), 'hookreel-sample-'));
  try {
    const out = await localVoice.synthesize(
      { text, language: voice.language, accent: voice.accent, gender: voice.gender, voiceId: id },
      work,
    );
    await copyFile(out.wavPath, outPath);
    return true;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
