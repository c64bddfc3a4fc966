// Runs eSpeak-NG (WebAssembly) in its own process so synthesis never blocks the server's event loop.
// stdin: JSON { text, voice, rate, outPath }. stdout: JSON { words: [{ word, startSec, endSec }], durationSec }.
import { writeFileSync } from 'node:fs';
import init from '@echogarden/espeak-ng-emscripten';

const input = JSON.parse(
  await new Promise((resolve) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c) => (data += c));
    process.stdin.on('end', () => resolve(data));
  }),
);

// Tokens with their character offsets; eSpeak's word events point into the text by (1-based) character.
const tokens = [...input.text.matchAll(/\S+/g)].map((m) => ({ word: m[0], from: m.index, to: m.index + m[0].length }));
const module = await init();
const worker = new module.eSpeakNGWorker();
worker.set_voice(input.voice);
worker.set_rate(input.rate);
const chunks = [];
const events = [];
worker.synthesize(input.text, (samples, evs) => {
  if (samples) chunks.push(Int16Array.from(samples));
  for (const e of evs) if (e.type === 'word' || e.type === 'end' || e.type === 'phoneme') events.push(e);
});
const sampleRate = 22050;
const total = chunks.reduce((n, c) => n + c.length, 0);
const pcm = new Int16Array(total);
let offset = 0;
for (const c of chunks) {
  pcm.set(c, offset);
  offset += c.length;
}
const durationSec = total / sampleRate;
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + pcm.byteLength, 4);
header.write('WAVE', 8);
header.write('fmt ', 12);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20);
header.writeUInt16LE(1, 22);
header.writeUInt32LE(sampleRate, 24);
header.writeUInt32LE(sampleRate * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write('data', 36);
header.writeUInt32LE(pcm.byteLength, 40);
writeFileSync(input.outPath, Buffer.concat([header, Buffer.from(pcm.buffer)]));

// A token starts at its first word event; it ends where the next token starts or its clause's speech stops.
// eSpeak's clause 'end' event comes after the pause that closes a sentence (where the next one starts); the pause
// itself begins at the first of the empty phonemes it ends with. Ending a sentence's last word there keeps the
// pause silent in the timings too (the mouth closes, captions and the report see the silence).
const starts = new Map();
const clauseEnds = [];
let pauseFrom = null;
for (const e of events) {
  if (e.type === 'phoneme') {
    if (e.id) pauseFrom = null;
    else pauseFrom ??= e.audio_position;
  } else if (e.type === 'end') {
    clauseEnds.push((pauseFrom ?? e.audio_position) / 1000);
    pauseFrom = null;
  } else {
    pauseFrom = null;
    const at = e.text_position - 1;
    const i = tokens.findIndex((t) => at >= t.from && at < t.to);
    if (i >= 0 && !starts.has(i)) starts.set(i, e.audio_position / 1000);
  }
}
let last = 0;
const timings = tokens.map((t, i) => {
  const startSec = Math.max(last, starts.get(i) ?? last);
  let nextStart = durationSec;
  for (let j = i + 1; j < tokens.length; j++) {
    if (starts.has(j)) {
      nextStart = starts.get(j);
      break;
    }
  }
  const clauseEnd = clauseEnds.find((c) => c > startSec) ?? durationSec;
  const endSec = Math.max(startSec + 0.05, Math.min(nextStart, clauseEnd, durationSec));
  last = startSec;
  return { word: t.word, startSec, endSec };
});
process.stdout.write(JSON.stringify({ words: timings, durationSec }));
