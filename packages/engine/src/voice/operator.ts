import type { WordTiming } from '../types.ts';
import type { VoiceInfo } from './catalog.ts';

/** A voice an operator added (a Piper model in VOICES_DIR), loaded and checked before any render asks for it. */
export interface OperatorVoice {
  info: VoiceInfo;
  /**
   * Says `text` into a 16-bit mono WAV at `outWav` at `speed` (0.8–1.2, the voice changes its own rate) and
   * returns the tokens' timings in that file's seconds.
   */
  speak(text: string, outWav: string, speed: number, signal?: AbortSignal): Promise<WordTiming[]>;
}

let loaded: OperatorVoice[] = [];

/** Replaces the operator's voices this process speaks with (the server calls it once at start-up). */
export function setOperatorVoices(voices: readonly OperatorVoice[]): void {
  loaded = [...voices];
}

export function operatorVoices(): readonly OperatorVoice[] {
  return loaded;
}

export function operatorVoice(id: string): OperatorVoice | undefined {
  return loaded.find((v) => v.info.id === id);
}
