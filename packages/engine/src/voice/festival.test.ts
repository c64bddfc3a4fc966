import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../util/process.ts';
import {
  closeFestivalSessions,
  FESTIVAL_VOICES,
  festivalSpeak,
  heapFor,
  parseFestivalTokens,
  SMALL_HEAP,
  speakScript,
} from './festival.ts';

const VOICE = FESTIVAL_VOICES.femaleAmerican;

/** What a one-shot `festival -b` makes of the same text: the WAV's bytes and the token timings. */
async function oneShot(
  dir: string,
  text: string,
): Promise<{ wav: Buffer; words: ReturnType<typeof parseFestivalTokens> }> {
  const wav = path.join(dir, `one-shot-${Math.random().toString(36).slice(2)}.wav`);
  const script = `${wav}.scm`;
  await writeFile(script, `(voice_${VOICE})\n${speakScript(text, wav)}`);
  const { stdout } = await runProcess('festival', ['-b', script]);
  return { wav: await readFile(wav), words: parseFestivalTokens(stdout) };
}

/** This process's festival sessions, by the command line they were started with. */
const sessionArgs = async () =>
  (await runProcess('ps', ['-eo', 'ppid,args'])).stdout
    .split('\n')
    .filter((l) => Number(l.trim().split(/\s+/)[0]) === process.pid && /festival .*--pipe/.test(l))
    .map((l) => l.trim().split(/\s+/).slice(1).join(' '));
const running = async () => (await sessionArgs()).length;

describe('festival heap', () => {
  it('is small for everyday lines, the default for long or digit-heavy ones', () => {
    expect(heapFor('Try it today!')).toBe('small');
    expect(heapFor('x'.repeat(SMALL_HEAP.maxChars))).toBe('small');
    expect(heapFor('x'.repeat(SMALL_HEAP.maxChars + 1))).toBe('default');
    expect(heapFor('Only $19.99 until 12/05/2026, call 555 0100.')).toBe('small');
    expect(heapFor('1,234,567.89 and 98,765,432.10 and 11,223,344.55')).toBe('default');
  });
});

describe('festival timings', () => {
  it('give a word before a full stop its whole length, not the empty end of its punctuation', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-festival-'));
    try {
      const words = await festivalSpeak(
        'Stop scrolling. This bottle keeps water cold.',
        VOICE,
        path.join(dir, 'v.wav'),
      );
      const scrolling = words.find((w) => w.word === 'scrolling.')!;
      const next = words.find((w) => w.word === 'This')!;
      // "scrolling" is three syllables (~0.6 s); the pause after it is silence before "This".
      expect(scrolling.endSec - scrolling.startSec).toBeGreaterThan(0.4);
      expect(scrolling.endSec).toBeLessThanOrEqual(next.startSec);
      expect(words[words.length - 1]!.endSec - words[words.length - 1]!.startSec).toBeGreaterThan(0.2);
    } finally {
      await closeFestivalSessions();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('festival sessions', () => {
  let dir: string;
  beforeAll(async () => {
    // Files share a worker's modules: sessions another file left parked would be counted below.
    await closeFestivalSessions();
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-festival-'));
  });
  afterAll(async () => {
    await closeFestivalSessions();
    await rm(dir, { recursive: true, force: true });
  });

  it('speak as a one-shot run does (same WAV, same timings), two at a time, one after another', async () => {
    const lines = ['This serum changed my mornings, in 7 days.', 'Try it today!', 'Nobody talks about this.'];
    const said = async (text: string, name: string) => {
      const wav = path.join(dir, `${name}.wav`);
      const words = await festivalSpeak(text, VOICE, wav);
      return { wav: await readFile(wav), words };
    };
    // Two at once (two renders on a worker), then a third reusing a parked session.
    const [a, b] = await Promise.all([said(lines[0]!, 'a'), said(lines[1]!, 'b')]);
    const c = await said(lines[2]!, 'c');
    for (const [got, text] of [
      [a, lines[0]!],
      [b, lines[1]!],
      [c, lines[2]!],
    ] as const) {
      const ref = await oneShot(dir, text);
      expect(got.words).toEqual(ref.words);
      expect(got.words.length).toBeGreaterThan(1);
      expect(got.wav.equals(ref.wav)).toBe(true);
    }
    expect(await running()).toBeGreaterThan(0);
    expect(await running()).toBeLessThanOrEqual(2);
    await closeFestivalSessions();
    expect(await running()).toBe(0);
  }, 60_000);

  it('say everyday lines on a small heap and long ones on the default heap, as a one-shot run does', async () => {
    await closeFestivalSessions();
    const short = 'Seven days in, my skin feels smooth.';
    const long = Array.from(
      { length: 14 },
      (_, i) => `Week ${['one', 'two', 'three'][i % 3]}, my skin felt smoother and the glow stayed all day.`,
    ).join(' ');
    expect(long.length).toBeGreaterThan(SMALL_HEAP.maxChars);
    // Sessions are read right after each line: on a loaded machine an idle one may end before the loop does.
    const seen = new Set<string>();
    for (const [text, name] of [
      [short, 'short'],
      [long, 'long'],
    ] as const) {
      const wav = path.join(dir, `${name}.wav`);
      const words = await festivalSpeak(text, VOICE, wav);
      for (const line of await sessionArgs()) seen.add(line);
      const ref = await oneShot(dir, text);
      expect(words).toEqual(ref.words);
      expect((await readFile(wav)).equals(ref.wav)).toBe(true);
    }
    const args = [...seen];
    expect(args.filter((a) => a.includes(`--heap ${SMALL_HEAP.cells}`))).toHaveLength(1);
    expect(args.filter((a) => !a.includes('--heap'))).toHaveLength(1);
    await closeFestivalSessions();
  }, 60_000);

  it('stops on abort and the next line is still spoken', async () => {
    const ac = new AbortController();
    const pending = festivalSpeak(
      'A rather long line that is still being spoken when the job is cancelled.',
      VOICE,
      path.join(dir, 'x.wav'),
      ac.signal,
    );
    ac.abort();
    await expect(pending).rejects.toThrow();
    const words = await festivalSpeak('Still here.', VOICE, path.join(dir, 'y.wav'));
    expect(words.map((w) => w.word)).toEqual(['Still', 'here.']);
  }, 60_000);
});
