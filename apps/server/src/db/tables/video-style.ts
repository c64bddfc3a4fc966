import type { Generated } from 'kysely';
import type { Bool } from '../schema.ts';

/** How a video looks and sounds: the same columns on projects and hook packs (read by services/video). */
export interface VideoStyleColumns {
  /** Caption preset (contracts CaptionStyle), 'highlight' by default. */
  caption_style: Generated<string>;
  /** End card call to action; null for no end card. */
  cta_text: string | null;
  /** 'draft' (local engine) or 'realistic' (providers); contracts VideoQuality. */
  render_quality: Generated<string>;
  /** Voice speaking rate, 0.8–1.2. */
  voice_speed: Generated<number>;
  /** The voice chosen (an id of GET /api/voices), null for the best of its language, accent and actor. */
  voice_id: string | null;
  /** Frame shapes exported, a comma list ('9:16,4:5'); 9:16 always. */
  aspects: Generated<string>;
  /** Storage key of the uploaded music bed, or null for none. */
  music_key: string | null;
  /** Brand look (contracts CaptionFont, #RRGGBB colours, outro card on/off), copied from the brand kit. */
  caption_font: Generated<string>;
  primary_colour: Generated<string>;
  secondary_colour: Generated<string>;
  outro: Generated<Bool>;
}
