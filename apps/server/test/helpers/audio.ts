import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pcmWav } from '@hookreel/engine/testing';

/** A real PCM WAV file: a 440 Hz tone, 16-bit mono at 22.05 kHz, `seconds` long (a music bed for uploads). */
export function wavTone(seconds = 1, rate = 22050): Buffer {
  const samples = Int16Array.from({ length: Math.round(seconds * rate) }, (_, i) =>
    Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000),
  );
  return pcmWav(samples, rate);
}

/** The WAV tone encoded by ffmpeg as a real MP3 (libmp3lame) or M4A (AAC in MP4): what a user's music bed is. */
export function encodedTone(kind: 'mp3' | 'm4a', seconds = 1): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookreel-tone-'));
  try {
    const wav = path.join(dir, 'tone.wav');
    const out = path.join(dir, `tone.${kind}`);
    writeFileSync(wav, wavTone(seconds));
    const codec = kind === 'mp3' ? ['-c:a', 'libmp3lame', '-b:a', '96k'] : ['-c:a', 'aac', '-b:a', '96k'];
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, ...codec, out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
