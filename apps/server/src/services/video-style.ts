import {
  CaptionStyle,
  DEFAULT_CAPTION_STYLE,
  DEFAULT_VIDEO_QUALITY,
  VOICE_SPEED,
  VideoQuality,
} from '@hookreel/contracts';
import path from 'node:path';
import type { AppContext } from '../context.ts';

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
  };
}

/** The stored columns of a video style (projects and hook_packs). */
interface StyleRow {
  caption_style: string;
  cta_text: string | null;
  music_key: string | null;
  render_quality: string;
  voice_speed: number;
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
}
export const renderStyleOf = (row: StyleRow): RenderStyle => ({
  captionStyle: videoStyleOf(row).caption_style,
  cta: row.cta_text,
  musicKey: row.music_key,
  voiceSpeed: voiceSpeedOf(row.voice_speed),
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
