import {
  parseAspects,
  type Aspect,
  CaptionStyle,
  DEFAULT_ASPECT,
  DEFAULT_CAPTION_STYLE,
  DEFAULT_VIDEO_QUALITY,
  VOICE_SPEED,
  VideoQuality,
} from '@hookreel/contracts';
import path from 'node:path';
import type { AppContext } from '../../context.ts';

/**
 * How a project's or hook pack's videos look and sound beside the script: caption preset, end card CTA and the
 * optional music bed (docs/video-design.md). Rows store the music's storage key; the API shows it as a URL.
 */
export function videoStyleOf(row: StyleRow) {
  const parsed = CaptionStyle.safeParse(row.caption_style);
  const quality = VideoQuality.safeParse(row.render_quality);
  return {
    caption_style: parsed.success ? parsed.data : DEFAULT_CAPTION_STYLE,
    cta_text: row.cta_text,
    music_url: row.music_key ? `static/${row.music_key}` : null,
    quality: quality.success ? quality.data : DEFAULT_VIDEO_QUALITY,
    voice_speed: voiceSpeedOf(row.voice_speed),
    voice_id: row.voice_id,
    aspects: parseAspects(row.aspects),
  };
}

/** The stored columns of a video style (projects and hook_packs). */
interface StyleRow {
  caption_style: string;
  cta_text: string | null;
  music_key: string | null;
  render_quality: string;
  voice_speed: number;
  voice_id: string | null;
  aspects: string;
}

/** A stored speed inside the offered range (1 for anything unreadable). */
export function voiceSpeedOf(v: number | string | null | undefined): number {
  const n = typeof v === 'string' ? Number.parseFloat(v) : v;
  if (n === null || n === undefined || !Number.isFinite(n)) return VOICE_SPEED.default;
  return Math.round(Math.min(VOICE_SPEED.max, Math.max(VOICE_SPEED.min, n)) * 100) / 100;
}

/** What a render needs of the style: the preset, the CTA and the music's storage key. */
export interface RenderStyle {
  captionStyle: CaptionStyle;
  cta: string | null;
  musicKey: string | null;
  voiceSpeed: number;
  /** The voice chosen (an id of GET /api/voices); null: the best for the language, accent and actor. */
  voiceId: string | null;
  /** Every shape to export, 9:16 first. */
  aspects: Aspect[];
}
export const renderStyleOf = (row: StyleRow): RenderStyle => ({
  captionStyle: videoStyleOf(row).caption_style,
  cta: row.cta_text,
  musicKey: row.music_key,
  voiceSpeed: voiceSpeedOf(row.voice_speed),
  voiceId: row.voice_id,
  aspects: parseAspects(row.aspects),
});

/** The music bed on local disk for a render (null when none, or when its file has gone). */
export async function localMusic(
  jc: { app: Pick<AppContext, 'files'>; workDir: string },
  key: string | null,
): Promise<string | null> {
  if (!key || !(await jc.app.files.exists(key))) return null;
  const local = path.join(jc.workDir, 'music.m4a');
  await jc.app.files.toLocalFile(key, local);
  return local;
}

/**
 * The shapes a job renders beside 9:16, from the stored choice, captured in its payload when it is queued. They
 * are re-compositions of the 9:16 render (no second voice or actor), so they add no credits to the video's
 * price: decision 136 (docs/decisions/136-extra-aspects-are-re-compositions-at-no-extra-credit.md).
 */
export const extraAspectsOf = (stored: string | null | undefined): Aspect[] =>
  parseAspects(stored).filter((a) => a !== DEFAULT_ASPECT);
