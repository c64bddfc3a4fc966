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

/**
 * An MP3 whose header lies about its length (issue #33): a real `claimSec` MP3 (8 kHz mono, 8 kbit/s, with its
 * Xing header) whose audio frames are repeated until it holds `holdsSec`; the Xing header keeps the frame count of
 * `claimSec` and is given the new byte size, so ffprobe reports `claimSec` while a decoder plays `holdsSec`.
 * Two hours is about 7 MB.
 */
export function lyingMp3(claimSec = 60, holdsSec = 7200): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'hookreel-lie-'));
  try {
    const out = path.join(dir, 'claim.mp3');
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=440:sample_rate=8000:d=${claimSec}`],
      ...['-ac', '1', '-c:a', 'libmp3lame', '-b:a', '8k', out],
    ]);
    const claim = readFileSync(out);
    const tag = claim.indexOf('Info');
    if (tag < 0) throw new Error('no Xing/Info header in the encoded MP3');
    // The tag's frame is the first audio frame: 72 bytes at 8 kbit/s and 8 kHz (MPEG-2.5 layer III).
    const frameStart = claim.lastIndexOf(Buffer.from([0xff]), tag);
    const audio = claim.subarray(frameStart + 72);
    const copies = Math.max(1, Math.round(holdsSec / claimSec));
    const lie = Buffer.concat([claim.subarray(0, frameStart + 72), ...Array<Buffer>(copies).fill(audio)]);
    lie.write('Xing', tag, 'latin1'); // a VBR tag's frame count is what ffprobe believes
    lie.writeUInt32BE(lie.length, tag + 12); // bytes field: the real size, so the file does not look concatenated
    return lie;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
