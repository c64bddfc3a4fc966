import type { Generated } from 'kysely';
import type { Bool } from '../schema.ts';

/** A user's brand kit (docs/video-design.md#brand-kit); no row means the default kit. */
export interface BrandKitsTable {
  user_id: number;
  /** Sanitised logo: `users/<uid>/brand/<uuid>.<png|webp>`, or null. */
  logo_key: string | null;
  logo_width: number | null;
  logo_height: number | null;
  primary_colour: string;
  secondary_colour: string;
  caption_font: string;
  caption_style: string;
  cta_text: string | null;
  outro: Bool;
  /** AiLabelMode of contracts: 'real_photos' | 'all' | 'off'. */
  ai_label: Generated<string>;
  updated_at: string;
}

export interface BrandKitTables {
  brand_kits: BrandKitsTable;
}
