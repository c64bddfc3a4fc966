/**
 * The voice step on its own, per voice: CPU per video (one ~10-second ad line said, then its WAV written as the
 * render takes it), the real-time factor, and what can be measured of the sound without ears — sample rate,
 * median pitch, pitch movement (intonation: a flat, robotic voice moves little) and the share of voiced frames.
 * The figures of decision 210 come from this. Listen to the kept WAVs, or look at the spectrograms, in the folder
 * it prints.
 *
 * Usage: [VOICES_DIR=dir] npm run bench:voices; options reach it as
 *   npm run voices -w @hookreel/bench -- [--keep DIR] [--rounds N] [--only piper|flite|festival|espeak]
 * Prints one line per voice and a summary per engine: voice: <engine> <id>: <cpu> s CPU per video, RTF <x>, ...
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { availableVoices, localVoice, toVoiceWav } from '../packages/engine/src/voice/index.ts';
import { espeakSpeak } from '../packages/engine/src/voice/espeak.ts';
import { closeSpawner } from '../packages/engine/src/util/spawner.ts';
import type { VoiceInfo } from '../packages/engine/src/voice/catalog.ts';
import { closeFestivalSessions } from '../packages/engine/src/voice/festival.ts';
import { setOperatorVoices } from '../packages/engine/src/voice/operator.ts';
import { loadPiperVoices } from '../packages/engine/src/voice/piper/load.ts';
import { runProcess } from '../packages/engine/src/util/process.ts';
import { FFMPEG } from '../packages/engine/src/util/media.ts';
import { cpuSeconds } from './lib/floor.ts';

/** Ad lines of the everyday length (about 10 s each), per language. */
const LINES: Record<string, string[]> = {
  english: [
    'Stop scrolling. This seven dollar serum changed my skin in two weeks, and I am never going back.',
    'I tried every budget planner out there. This is the only one my whole family actually uses every day.',
    'Your morning coffee, without the crash. Tap the link and get your first bag free this week only.',
  ],
  spanish: ['Deja de buscar. Este sérum de siete dólares cambió mi piel en dos semanas y no pienso volver atrás.'],
  french: ["Arrête de chercher. Ce sérum à sept dollars a changé ma peau en deux semaines, je n'y reviens pas."],
  german: ['Hör auf zu suchen. Dieses Serum für sieben Dollar hat meine Haut in zwei Wochen verändert.'],
  portuguese: ['Pare de procurar. Este sérum de sete dólares mudou minha pele em duas semanas, e eu não volto atrás.'],
  dutch: ['Stop met zoeken. Dit serum van zeven dollar heeft mijn huid in twee weken veranderd.'],
};

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

interface Sound {
  rate: number;
  f0Median: number;
  /** Standard deviation of the voiced frames' pitch, in semitones. */
  f0SpreadSt: number;
  voicedShare: number;
}

/** Pitch by normalised autocorrelation on 40 ms frames of the 16 kHz signal, 60–400 Hz. */
async function sound(wav: string, rawWav: string): Promise<Sound> {
  const head = await readFile(rawWav).catch(() => null);
  const rate = head && head.toString('ascii', 0, 4) === 'RIFF' ? head.readUInt32LE(24) : 0;
  const f32 = `${wav}.f32`;
  await runProcess(FFMPEG, ['-y', '-v', 'error', '-i', wav, '-ac', '1', '-ar', '16000', '-f', 'f32le', f32]);
  const buf = await readFile(f32);
  const x = new Float32Array(buf.buffer, buf.byteOffset, Math.floor(buf.byteLength / 4));
  const frame = 640;
  const hop = 160;
  let peak = 0;
  for (const v of x) peak = Math.max(peak, Math.abs(v));
  const f0s: number[] = [];
  let frames = 0;
  for (let at = 0; at + frame < x.length; at += hop) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += x[at + i]! * x[at + i]!;
    if (Math.sqrt(energy / frame) < peak * 0.05) continue;
    frames++;
    let bestLag = 0;
    let best = 0;
    for (let lag = 40; lag <= 266; lag++) {
      let num = 0;
      let a = 0;
      let b = 0;
      for (let i = 0; i + lag < frame; i++) {
        num += x[at + i]! * x[at + i + lag]!;
        a += x[at + i]! * x[at + i]!;
        b += x[at + i + lag]! * x[at + i + lag]!;
      }
      const r = num / Math.sqrt(a * b + 1e-12);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6) f0s.push(16000 / bestLag);
  }
  f0s.sort((p, q) => p - q);
  const median = f0s[Math.floor(f0s.length / 2)] ?? 0;
  const st = f0s.map((f) => 12 * Math.log2(f / median));
  const mean = st.reduce((s, v) => s + v, 0) / Math.max(1, st.length);
  const spread = Math.sqrt(st.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, st.length));
  return { rate, f0Median: median, f0SpreadSt: spread, voicedShare: frames ? f0s.length / frames : 0 };
}

/** eSpeak variants compared beside the catalogue's m3/f3 (decision 210). */
const ESPEAK_VARIANTS = ['m1', 'm7', 'f2', 'f5'].map((variant): VoiceInfo => ({
  id: `espeak:en-us+${variant}`,
  engine: 'espeak',
  label: `eSpeak en-us+${variant}`,
  language: 'english',
  accent: 'american',
  gender: variant.startsWith('f') ? 'female' : 'male',
  rank: 0,
  licence: '',
}));

/** A variant the catalogue does not list, said by eSpeak directly and written as the render takes it. */
async function espeakVariant(
  text: string,
  id: string,
  out: string,
): Promise<{ wavPath: string; durationSec: number; voice: string }> {
  await mkdir(out, { recursive: true });
  const raw = path.join(out, 'voice-raw.wav');
  await espeakSpeak(text, id.slice('espeak:'.length), raw);
  const { wavPath, durationSec } = await toVoiceWav(raw, out);
  return { wavPath, durationSec, voice: id };
}

async function main(): Promise<void> {
  await closeSpawner();
  const keep = arg('--keep');
  const rounds = Number(arg('--rounds') ?? 1);
  const dir = keep ?? (await mkdtemp(path.join(tmpdir(), 'hookreel-voices-')));
  await mkdir(dir, { recursive: true });
  // Piper voices in VOICES_DIR are measured too (none ships with the machine: say where they are).
  const voicesDir = process.env.VOICES_DIR;
  if (voicesDir) {
    const { voices, refused } = await loadPiperVoices(voicesDir);
    for (const r of refused) console.log(`voice: refused ${r.file}: ${r.reason}`);
    setOperatorVoices(voices);
  } else console.log('voice: no VOICES_DIR set: no Piper voice measured');
  const catalogue = await availableVoices();
  const only = arg('--only');
  const all = [...catalogue, ...ESPEAK_VARIANTS].filter((v) => !only || v.engine === only);
  const perEngine = new Map<string, { cpu: number; videos: number }>();
  for (const v of all) {
    const lines = LINES[v.language] ?? [];
    let cpu = 0;
    let audio = 0;
    let last: Sound | null = null;
    for (let r = 0; r < rounds; r++) {
      for (const [i, text] of lines.entries()) {
        const out = path.join(dir, v.id.replace(/[^a-z0-9_.-]+/gi, '_'), `${r}-${i}`);
        const before = await cpuSeconds();
        const res = catalogue.includes(v)
          ? await localVoice.synthesize(
              { text, language: v.language, accent: v.accent, gender: v.gender, voiceId: v.id },
              out,
            )
          : await espeakVariant(text, v.id, out);
        // Finished children only count: end the festival sessions and the spawner helper (decision 166).
        await closeFestivalSessions();
        await closeSpawner();
        cpu += (await cpuSeconds()) - before;
        audio += res.durationSec;
        if (res.voice !== v.id) throw new Error(`asked for ${v.id}, spoken by ${res.voice}`);
        if (r === 0 && i === 0) last = await sound(res.wavPath, res.wavPath);
      }
    }
    const videos = lines.length * rounds;
    const e = perEngine.get(v.engine) ?? { cpu: 0, videos: 0 };
    perEngine.set(v.engine, { cpu: e.cpu + cpu, videos: e.videos + videos });
    const s = last!;
    console.log(
      `voice: ${v.engine} ${v.id} (${v.language}, ${v.accent}, ${v.gender}): ${(cpu / videos).toFixed(3)} s CPU per ` +
        `video, RTF ${(cpu / audio).toFixed(3)}, ${(audio / videos).toFixed(1)} s of speech per line, ${s.rate} Hz, ` +
        `pitch median ${s.f0Median.toFixed(0)} Hz, movement ${s.f0SpreadSt.toFixed(1)} semitones, ` +
        `voiced ${(s.voicedShare * 100).toFixed(0)}%`,
    );
  }
  for (const [engine, e] of perEngine)
    console.log(`voice step: ${engine}: ${(e.cpu / e.videos).toFixed(3)} s CPU per video (${e.videos} lines)`);
  if (keep) console.log(`voice: WAVs kept in ${dir}`);
  else await rm(dir, { recursive: true, force: true });
}

await main();
