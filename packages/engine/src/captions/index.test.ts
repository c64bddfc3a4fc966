import { describe, expect, it } from 'vitest';
import type { WordTiming } from '../types.ts';
import { groupWords, toSrt, toVtt } from './index.ts';

const words = (text: string, step = 0.3): WordTiming[] =>
  text.split(' ').map((word, i) => ({ word, startSec: i * step, endSec: i * step + step * 0.9 }));

describe('captions', () => {
  it('groups 2 to 4 words a line and breaks at sentence ends', () => {
    const lines = groupWords(words('This serum changed my skin. Try it today and see'));
    expect(lines.map((l) => l.words.map((w) => w.word).join(' '))).toEqual([
      'This serum changed my',
      'skin. Try it today',
      'and see',
    ]);
    for (const l of lines) expect(l.words.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) expect(l.words.length).toBeLessThanOrEqual(4);
  });

  it('keeps every word, in order, in the SRT and VTT', () => {
    const w = words('One two three four five six seven');
    const srt = toSrt(w);
    expect(srt.startsWith('1\n00:00:00,000 --> ')).toBe(true);
    expect(
      srt
        .replace(/\d+\n[\d:,]+ --> [\d:,]+\n/g, '')
        .split(/\s+/)
        .filter(Boolean),
    ).toEqual(w.map((x) => x.word));
    const vtt = toVtt(w);
    expect(vtt.startsWith('WEBVTT\n\n00:00:00.000 --> ')).toBe(true);
  });
});
