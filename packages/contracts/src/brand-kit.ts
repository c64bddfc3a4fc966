import { z } from 'zod';
import { CaptionStyle, CtaText, DEFAULT_CAPTION_STYLE } from './video.ts';

/**
 * A user's brand kit (docs/video-design.md#brand-kit): logo, two colours, the caption font, the default caption
 * style and CTA, and whether videos end on an outro card with the logo. Every new project and hook pack takes its
 * style from the kit; each can then change it.
 */

/**
 * The caption fonts on offer: open-licence typefaces the engine draws with libass from Debian font packages
 * (scripts/ensure-system.sh installs them). Each is used in its bold weight.
 */
export const CAPTION_FONTS = ['dejavu_sans', 'dejavu_serif', 'lato', 'open_sans'] as const;
export const CaptionFont = z.enum(CAPTION_FONTS, { message: 'Choose one of the offered fonts' });
export type CaptionFont = z.infer<typeof CaptionFont>;
export const DEFAULT_CAPTION_FONT: CaptionFont = 'dejavu_sans';
export const CAPTION_FONT_INFO: Record<
  CaptionFont,
  { label: string; family: string; licence: string; cssStack: string }
> = {
  dejavu_sans: {
    label: 'DejaVu Sans',
    family: 'DejaVu Sans',
    licence: 'Bitstream Vera / DejaVu licence',
    cssStack: '"DejaVu Sans", Verdana, sans-serif',
  },
  dejavu_serif: {
    label: 'DejaVu Serif',
    family: 'DejaVu Serif',
    licence: 'Bitstream Vera / DejaVu licence',
    cssStack: '"DejaVu Serif", Georgia, serif',
  },
  lato: { label: 'Lato', family: 'Lato', licence: 'SIL Open Font License 1.1', cssStack: 'Lato, sans-serif' },
  open_sans: {
    label: 'Open Sans',
    family: 'Open Sans',
    licence: 'Apache License 2.0',
    cssStack: '"Open Sans", sans-serif',
  },
};

/**
 * When videos carry the visible "AI-generated" label (docs/ai-labels.md): on videos that animate a real person's
 * photo (the default), on every video, or never. Every video is marked AI-made in its metadata whatever this says.
 */
export const AI_LABEL_MODES = ['real_photos', 'all', 'off'] as const;
export const AiLabelMode = z.enum(AI_LABEL_MODES, { message: 'Choose when videos show the AI label' });
export type AiLabelMode = z.infer<typeof AiLabelMode>;
export const DEFAULT_AI_LABEL_MODE: AiLabelMode = 'real_photos';
/** The words drawn on a labelled video. */
export const AI_LABEL_TEXT = 'AI-generated';
export const AI_LABEL_MODE_INFO: Record<AiLabelMode, { label: string; hint: string }> = {
  real_photos: {
    label: "On videos of real people's photos",
    hint: 'Recommended: platforms and the EU AI Act expect realistic AI video of a real person to say so.',
  },
  all: { label: 'On every video', hint: 'Drawn actors get the label too.' },
  off: {
    label: 'Never',
    hint: 'The files still say they are AI-made in their metadata; you label them yourself where you post them.',
  },
};
/** Whether a video gets the visible label, from the kit's mode and what it animates. */
export const aiLabelShown = (mode: AiLabelMode, realPersonPhoto: boolean): boolean =>
  mode === 'all' || (mode === 'real_photos' && realPersonPhoto);

/** Brand colours are plain #RRGGBB (upper- or lower-case in, upper-case out). */
export const HexColour = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Colours must be written as #RRGGBB')
  .transform((v) => v.toUpperCase());

/** The kit a user has before saving one: the look videos had before brand kits. */
export const DEFAULT_BRAND_COLOURS = { primary: '#FFD23F', secondary: '#111111' } as const;

export const BRAND_KIT_LIMITS = {
  /** Logos are PNG or WEBP (transparency matters on the outro card), within the usual upload caps. */
  logoAccept: 'image/png,image/webp,.png,.webp',
  logoMinSide: 32,
} as const;

export const BRAND_KIT_MESSAGES = {
  logoType: 'The logo must be a PNG or WEBP image',
  logoTooSmall: `The logo must be at least ${BRAND_KIT_LIMITS.logoMinSide}x${BRAND_KIT_LIMITS.logoMinSide} pixels`,
  outroNeedsLogo: 'Upload a logo before turning on the outro card',
} as const;

export const BrandKit = z.object({
  /** The logo (`static/...`), or null when none is uploaded. */
  logo_url: z.string().nullable(),
  logo_width: z.number().int().nullable(),
  logo_height: z.number().int().nullable(),
  /** Highlighted words, the CTA button. */
  primary_colour: z.string(),
  /** Caption boxes and the outro card's background. */
  secondary_colour: z.string(),
  caption_font: CaptionFont,
  caption_style: CaptionStyle,
  cta_text: z.string().nullable(),
  /** Videos end on a card with the logo, after the CTA card. */
  outro: z.boolean(),
  /** When videos show the visible "AI-generated" label. */
  ai_label: AiLabelMode,
  updated_at: z.string().nullable(),
});
export type BrandKit = z.infer<typeof BrandKit>;

export const UpdateBrandKitRequest = z
  .object({
    primary_colour: HexColour,
    secondary_colour: HexColour,
    caption_font: CaptionFont,
    caption_style: CaptionStyle,
    cta_text: CtaText,
    outro: z.boolean(),
    /** Kept as it is when absent (clients from before the AI label). */
    ai_label: AiLabelMode.optional(),
  })
  .strict();
export type UpdateBrandKitRequest = z.infer<typeof UpdateBrandKitRequest>;

export const DEFAULT_BRAND_KIT: BrandKit = {
  logo_url: null,
  logo_width: null,
  logo_height: null,
  primary_colour: DEFAULT_BRAND_COLOURS.primary,
  secondary_colour: DEFAULT_BRAND_COLOURS.secondary,
  caption_font: DEFAULT_CAPTION_FONT,
  caption_style: DEFAULT_CAPTION_STYLE,
  cta_text: null,
  outro: false,
  ai_label: DEFAULT_AI_LABEL_MODE,
  updated_at: null,
};

/** A project's or pack's brand look: copied from the kit when it is created, then its own. */
export const BrandStyleFields = z.object({
  caption_font: CaptionFont,
  primary_colour: z.string(),
  secondary_colour: z.string(),
  outro: z.boolean(),
});
export const UpdateBrandStyleFields = z.object({
  caption_font: CaptionFont,
  primary_colour: HexColour,
  secondary_colour: HexColour,
  outro: z.boolean(),
});

/** WCAG relative luminance of #RRGGBB, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const c = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
}
/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
/** Near-black or white text, whichever reads better on `fill`. */
export const textColourOn = (fill: string): '#111111' | '#FFFFFF' =>
  contrastRatio(fill, '#111111') >= contrastRatio(fill, '#FFFFFF') ? '#111111' : '#FFFFFF';
