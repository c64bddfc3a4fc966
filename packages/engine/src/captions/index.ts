import type { WordTiming } from '../types.ts';

export interface CaptionLine {
  words: WordTiming[];
  startSec: number;
  endSec: number;
}

/**
 * Groups words into caption lines of 2–4 words: a line closes at 4 words, at sentence punctuation once it has
 * 2, or at a pause longer than 0.35 s, so lines follow the speech rhythm.
 */
export function groupWords(words: readonly WordTiming[], maxWords = 4, minWords = 2): CaptionLine[] {
  const lines: CaptionLine[] = [];
  let current: WordTiming[] = [];
  const close = () => {
    if (current.length === 0) return;
    lines.push({ words: current, startSec: current[0]!.startSec, endSec: current[current.length - 1]!.endSec });
    current = [];
  };
  words.forEach((w, i) => {
    current.push(w);
    const next = words[i + 1];
    const endsSentence = /[.!?,;:]$/.test(w.word);
    const pause = next ? next.startSec - w.endSec > 0.35 : false;
    if (current.length >= maxWords || ((endsSentence || pause) && current.length >= minWords)) close();
  });
  close();
  // A lone trailing word joins the previous line when that keeps it within the maximum.
  const lastLine = lines[lines.length - 1];
  const prev = lines[lines.length - 2];
  if (lastLine && prev && lastLine.words.length === 1 && prev.words.length < maxWords + 1) {
    prev.words.push(...lastLine.words);
    prev.endSec = lastLine.endSec;
    lines.pop();
  }
  return lines;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function srtLikeTime(sec: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(sec * 1000));
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
}

export function toSrt(words: readonly WordTiming[]): string {
  return groupWords(words)
    .map(
      (l, i) =>
        `${i + 1}\n${srtLikeTime(l.startSec, ',')} --> ${srtLikeTime(l.endSec, ',')}\n${l.words.map((w) => w.word).join(' ')}\n`,
    )
    .join('\n');
}

export function toVtt(words: readonly WordTiming[]): string {
  const cues = groupWords(words).map(
    (l) =>
      `${srtLikeTime(l.startSec, '.')} --> ${srtLikeTime(l.endSec, '.')}\n${l.words.map((w) => w.word.replace(/</g, '&lt;')).join(' ')}\n`,
  );
  return `WEBVTT\n\n${cues.join('\n')}`;
}
