import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../types.ts';
import { mouthMotion } from './index.ts';

const SIZE = 24 * 16;
const FPS = 15;

/**
 * Mouth patches at 15 fps for 4 s: a word from 0.5 s to 3.5 s; the mouth changes every sample while it is in the
 * picture and spoken, and is the frame's still edge from 2.5 s on (a close-up framed under the chin).
 */
function samples(): { frames: Buffer; visible: boolean[] } {
  const n = 4 * FPS;
  const frames = Buffer.alloc(n * SIZE);
  const visible: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const t = i / FPS;
    const inPicture = t < 2.5;
    visible.push(inPicture);
    const value = inPicture && t > 0.5 && t < 3.5 ? (i % 2 ? 90 : 150) : 120;
    frames.fill(value, i * SIZE, (i + 1) * SIZE);
  }
  return { frames, visible };
}

describe('mouth motion', () => {
  const words: WordTiming[] = [{ word: 'Tryyyy', startSec: 0.5, endSec: 3.5 }];

  it('leaves out samples where the mouth is out of the picture', () => {
    const { frames, visible } = samples();
    const all = mouthMotion(frames, SIZE, words, 4)!;
    const seen = mouthMotion(frames, SIZE, words, 4, visible)!;
    // Counting the still edge as the mouth halves the motion measured while speaking.
    expect(seen.speech_motion).toBeGreaterThan(all.speech_motion);
    expect(seen.speech_motion).toBeGreaterThan(50);
    expect(seen.present).toBe(true);
  });
});

describe('mouth motion of a voice with short pauses (eSpeak: about 0.33 s between sentences)', () => {
  // Three sentences as eSpeak times them now: each ends where its pause starts; the next starts after it.
  const words: WordTiming[] = [
    { word: 'one.', startSec: 0, endSec: 2.06 },
    { word: 'two.', startSec: 2.39, endSec: 3.95 },
    { word: 'three!', startSec: 4.28, endSec: 5.27 },
  ];
  const speaking = (t: number) => words.some((w) => t >= w.startSec && t <= w.endSec);
  /** 15 fps patches for 5.27 s: alternating while `moves(t)`, else still. */
  const patches = (moves: (t: number) => boolean) => {
    const n = Math.floor(5.27 * FPS);
    const frames = Buffer.alloc(n * SIZE);
    for (let i = 0; i < n; i++) frames.fill(moves(i / FPS) ? (i % 2 ? 90 : 150) : 120, i * SIZE, (i + 1) * SIZE);
    return frames;
  };

  it('finds silence in the pauses between sentences and passes a mouth that moves only while speaking', () => {
    const m = mouthMotion(patches(speaking), SIZE, words, 5.27)!;
    expect(m.silence_motion).toBe(0);
    expect(m.present).toBe(true);
  });

  it('fails a mouth that does not move, and one that moves as much in the pauses as in the words', () => {
    expect(
      mouthMotion(
        patches(() => false),
        SIZE,
        words,
        5.27,
      )!.present,
    ).toBe(false);
    const throughPauses = mouthMotion(
      patches(() => true),
      SIZE,
      words,
      5.27,
    )!;
    expect(throughPauses.silence_motion).toBeGreaterThan(50);
    expect(throughPauses.present).toBe(false);
    // With no silence at all to compare with (the pauses once ran into the words), speech alone is rated: a
    // still mouth still fails.
    const noPause = words.map((w, i) => ({ ...w, endSec: words[i + 1]?.startSec ?? w.endSec }));
    expect(
      mouthMotion(
        patches(() => false),
        SIZE,
        noPause,
        5.27,
      )!.present,
    ).toBe(false);
    expect(
      mouthMotion(
        patches(() => true),
        SIZE,
        noPause,
        5.27,
      )!.present,
    ).toBe(true);
  });
});
