import { FIGURE_UNKNOWN, PUBLIC_STATS_ELEMENT_ID, type PublicStats } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { withPublicFigures } from './prerendered-figures.ts';

const page = (figures: string) => `<html><head></head><body><div id="root"><dl>${figures}</dl></div></body></html>`;
const stats = (over: Partial<PublicStats> = {}): PublicStats => ({
  seconds_per_video: 14.2,
  videos_measured: 9,
  actors: 24,
  languages: 6,
  ...over,
});

describe('withPublicFigures', () => {
  const prerendered = page(
    `<div><dt class="a" data-figure-label="render">render time, measured after the first video</dt>` +
      `<dd class="b" data-figure="render">${FIGURE_UNKNOWN}</dd></div>` +
      `<div><dt data-figure-label="actors">AI actors in the library</dt><dd data-figure="actors">${FIGURE_UNKNOWN}</dd></div>`,
  );

  it('writes the measured and counted figures, worded as the page words them, into the marked elements', () => {
    const html = withPublicFigures(prerendered, stats());
    expect(html).toContain('<dd class="b" data-figure="render">14 s</dd>');
    expect(html).toContain('<dt class="a" data-figure-label="render">median render per video, measured</dt>');
    expect(html).toContain('<dd data-figure="actors">24</dd>');
    expect(html).not.toContain(FIGURE_UNKNOWN);
  });

  it('keeps the not-yet-measured wording when nothing was rendered yet', () => {
    const html = withPublicFigures(prerendered, stats({ seconds_per_video: null, videos_measured: 0 }));
    expect(html).toContain(`data-figure="render">${FIGURE_UNKNOWN}</dd>`);
    expect(html).toContain('>render time, measured after the first video</dt>');
    expect(html).toContain('<dd data-figure="actors">24</dd>');
  });

  it('hands the app the same figures as JSON', () => {
    const html = withPublicFigures(prerendered, stats());
    const json = new RegExp(
      `<script type="application/json" id="${PUBLIC_STATS_ELEMENT_ID}">(.*?)</script></body>`,
    ).exec(html);
    expect(JSON.parse(json![1]!)).toEqual(stats());
  });

  it('leaves a page without figures untouched', () => {
    const html = page('<p>Sign in</p>');
    expect(withPublicFigures(html, stats())).toBe(html);
  });
});
