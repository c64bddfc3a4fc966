import { CaptionStyle, DEFAULT_CAPTION_STYLE } from '@hookreel/contracts';
import path from 'node:path';
import type { AppContext } from '../context.ts';

/**
 * How a project's or hook pack's videos look and sound beside the script: caption preset, end card CTA and the
 * optional music bed (docs/video-design.md). Rows store the music's storage key; the API shows it as a URL.
 */
export function videoStyleOf(row: { caption_style: string; cta_text: string | null; music_key: string | null }) {
  const parsed = CaptionStyle.safeParse(row.caption_style);
  return {
    caption_style: parsed.success ? parsed.data : DEFAULT_CAPTION_STYLE,
    cta_text: row.cta_text,
    music_url: row.music_key ? `static/${row.music_key}` : null,
  };
}

/** What a render needs of the style: the preset, the CTA and the music's storage key. */
export interface RenderStyle {
  captionStyle: CaptionStyle;
  cta: string | null;
  musicKey: string | null;
}
export const renderStyleOf = (row: {
  caption_style: string;
  cta_text: string | null;
  music_key: string | null;
}): RenderStyle => ({
  captionStyle: videoStyleOf(row).caption_style,
  cta: row.cta_text,
  musicKey: row.music_key,
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
