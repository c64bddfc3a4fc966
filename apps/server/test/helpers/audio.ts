import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A real PCM WAV file: a 440 Hz tone, 16-bit mono at 22.05 kHz, `seconds` long (a music bed for uploads). */
export function wavTone(seconds = 1, rate = 22050): Buffer {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8, 'latin1');
  h.write('fmt ', 12, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
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
