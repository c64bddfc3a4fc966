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
