import { LANGUAGES } from './common.ts';
import { LIMITS } from './constants.ts';
import type { PublicStats } from './jobs.ts';

/** '14 s' / '2 min': a measured duration as people say it. */
export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
}

export type PublicFigureKey = 'render' | 'actors' | 'languages' | 'pack' | 'license';

export interface PublicFigure {
  key: PublicFigureKey;
  value: string;
  label: string;
}

/** Shown for a figure this installation has not measured or counted yet. */
export const FIGURE_UNKNOWN = '—';

/**
 * The landing page's figures, every one measured or counted by this installation (docs/decisions/111), or
 * {@link FIGURE_UNKNOWN} until it exists. One function for the page and for the server, which writes the same text
 * into the prerendered page so it shows before any JavaScript runs (decision 115).
 */
export function publicFigures(stats: PublicStats | undefined): PublicFigure[] {
  const seconds = stats?.seconds_per_video ?? null;
  return [
    {
      key: 'render',
      value: seconds !== null ? formatDuration(seconds) : FIGURE_UNKNOWN,
      label: seconds !== null ? 'median render per video, measured' : 'render time, measured after the first video',
    },
    { key: 'actors', value: stats ? String(stats.actors) : FIGURE_UNKNOWN, label: 'AI actors in the library' },
    { key: 'languages', value: String(stats?.languages ?? LANGUAGES.length), label: 'languages' },
    { key: 'pack', value: String(LIMITS.videosPerHookPack), label: 'videos per hook pack' },
    { key: 'license', value: 'AGPL', label: 'open source, self-hostable' },
  ];
}

/**
 * The id of the `<script type="application/json">` in which the server hands the page the figures it wrote into
 * the prerendered markup, so the app's first render agrees with that markup when it takes it over.
 */
export const PUBLIC_STATS_ELEMENT_ID = 'hookreel-public-stats';
