import type { WordTiming } from '../types.ts';
import { VIDEO_HEIGHT, VIDEO_WIDTH } from '../types.ts';

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

/** ASS time: H:MM:SS.cc */
export function assTime(sec: number): string {
  const cs = Math.max(0, Math.round(sec * 100));
  return `${Math.floor(cs / 360000)}:${pad(Math.floor(cs / 6000) % 60)}:${pad(Math.floor(cs / 100) % 60)}.${pad(cs % 100)}`;
}

function srtLikeTime(sec: number, sep: ',' | '.'): string {
  const ms = Math.max(0, Math.round(sec * 1000));
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor(ms / 60000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${sep}${pad(ms % 1000, 3)}`;
}

/**
 * Text inside an ASS event: braces open override blocks and a backslash starts a tag (\N, \h…). libass has no
 * escape for either, so braces are dropped and a backslash becomes the look-alike U+2216.
 */
export const escapeAss = (s: string): string => s.replace(/\\/g, '\u2216').replace(/[{}]/g, '').replace(/\n/g, ' ');

export interface AssOptions {
  fontName?: string;
  /** Vertical centre of the caption band, as a fraction of the height. */
  bandCentre?: number;
  hookText?: string;
  hookUntilSec?: number;
}

/**
 * An ASS file with word-by-word highlight: every word's time span gets its own event showing the whole line
 * with that word in the highlight colour. Captions sit at 62% of the height — clear of the top 15% and the
 * bottom 25% where TikTok and Reels draw their interface. The hook text, when given, sits just below the top
 * band for its first seconds.
 */
export function toAss(words: readonly WordTiming[], opts: AssOptions = {}): string {
  const font = opts.fontName ?? 'DejaVu Sans';
  const y = Math.round(VIDEO_HEIGHT * (opts.bandCentre ?? 0.62));
  const lines = groupWords(words);
  const header = `[Script Info]
ScriptType: v4.00+
PlayResX: ${VIDEO_WIDTH}
PlayResY: ${VIDEO_HEIGHT}
WrapStyle: 0
ScaledBorderAndShadow: yes

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Caption,${font},54,&H00FFFFFF,&H0000D7FF,&H00000000,&H64000000,-1,0,0,0,100,100,0,0,1,4,2,5,40,40,0,1
Style: Hook,${font},46,&H00FFFFFF,&H00FFFFFF,&H00000000,&HAA000000,-1,0,0,0,100,100,0,0,3,14,0,8,50,50,${Math.round(VIDEO_HEIGHT * 0.16)},1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
`;
  const events: string[] = [];
  for (const line of lines) {
    line.words.forEach((w, i) => {
      const start = w.startSec;
      const end = i + 1 < line.words.length ? line.words[i + 1]!.startSec : line.endSec;
      const text = line.words
        .map((x, j) => (j === i ? `{\\c&H00D7FF&}${escapeAss(x.word)}{\\c&HFFFFFF&}` : escapeAss(x.word)))
        .join(' ');
      events.push(
        `Dialogue: 0,${assTime(start)},${assTime(Math.max(end, start + 0.05))},Caption,,0,0,0,,{\\pos(${VIDEO_WIDTH / 2},${y})}${text}`,
      );
    });
  }
  if (opts.hookText) {
    events.push(
      `Dialogue: 1,${assTime(0)},${assTime(opts.hookUntilSec ?? 2.5)},Hook,,0,0,0,,${escapeAss(opts.hookText)}`,
    );
  }
  return header + events.join('\n') + '\n';
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
