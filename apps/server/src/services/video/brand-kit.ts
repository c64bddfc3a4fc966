import {
  AiLabelMode,
  aiLabelShown,
  BRAND_KIT_LIMITS,
  BRAND_KIT_MESSAGES,
  CaptionFont,
  CaptionStyle,
  type CaptionFont as CaptionFontId,
  DEFAULT_BRAND_KIT,
  HexColour,
  type BrandKit,
  type UpdateBrandKitRequest,
} from '@hookreel/contracts';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CAPTION_FONT_FILES, type BrandLook } from '../../media/values.ts';
import type { AppContext } from '../../context.ts';
import { brandKitsRepository, type BrandKitRow } from '../../db/repositories/brand-kits.ts';
import { HttpError, unprocessable } from '../../errors.ts';
import { sanitizeImage, type UploadedFile } from '../../uploads/index.ts';

/**
 * A user's brand kit (docs/video-design.md#brand-kit, decision 133). The kit is only ever read and written for the
 * signed-in user (the row is keyed by their id), so there is no other owner to check. New projects and hook
 * packs copy its style; renders read its logo for the outro card.
 */

function toBrandKit(row: BrandKitRow | null): BrandKit {
  if (!row) return DEFAULT_BRAND_KIT;
  const font = CaptionFont.safeParse(row.caption_font);
  const style = CaptionStyle.safeParse(row.caption_style);
  return {
    logo_url: row.logo_key ? `static/${row.logo_key}` : null,
    logo_width: row.logo_key ? row.logo_width : null,
    logo_height: row.logo_key ? row.logo_height : null,
    primary_colour: colourOr(row.primary_colour, DEFAULT_BRAND_KIT.primary_colour),
    secondary_colour: colourOr(row.secondary_colour, DEFAULT_BRAND_KIT.secondary_colour),
    caption_font: font.success ? font.data : DEFAULT_BRAND_KIT.caption_font,
    caption_style: style.success ? style.data : DEFAULT_BRAND_KIT.caption_style,
    cta_text: row.cta_text,
    outro: row.outro === 1 && row.logo_key !== null,
    ai_label: aiLabelModeOf(row),
    updated_at: row.updated_at,
  };
}

const aiLabelModeOf = (row: Pick<BrandKitRow, 'ai_label'> | null): AiLabelMode => {
  const mode = AiLabelMode.safeParse(row?.ai_label);
  return mode.success ? mode.data : DEFAULT_BRAND_KIT.ai_label;
};

const colourOr = (v: string, fallback: string): string => {
  const parsed = HexColour.safeParse(v);
  return parsed.success ? parsed.data : fallback;
};

const valuesOf = (kit: BrandKit, row: BrandKitRow | null) => ({
  logo_key: row?.logo_key ?? null,
  logo_width: row?.logo_width ?? null,
  logo_height: row?.logo_height ?? null,
  primary_colour: kit.primary_colour,
  secondary_colour: kit.secondary_colour,
  caption_font: kit.caption_font,
  caption_style: kit.caption_style,
  cta_text: kit.cta_text,
  outro: kit.outro ? 1 : 0,
  ai_label: kit.ai_label,
});

export async function getBrandKit(ctx: AppContext, userId: number): Promise<BrandKit> {
  return toBrandKit(await brandKitsRepository.find(ctx.db.kysely, userId));
}

/** PUT /brand-kit: the whole kit but the logo. The outro card needs a logo to show. */
export async function updateBrandKit(ctx: AppContext, userId: number, body: UpdateBrandKitRequest): Promise<BrandKit> {
  const row = await brandKitsRepository.find(ctx.db.kysely, userId);
  if (body.outro && !row?.logo_key) throw unprocessable(BRAND_KIT_MESSAGES.outroNeedsLogo);
  const current = toBrandKit(row);
  const next: BrandKit = { ...current, ...body, ai_label: body.ai_label ?? current.ai_label };
  return toBrandKit(await brandKitsRepository.upsert(ctx.db.kysely, userId, valuesOf(next, row)));
}

/**
 * PUT /brand-kit/logo: checked like every image upload (magic bytes, size and pixel caps, metadata stripped,
 * re-encoded), then PNG or WEBP only, since the outro card draws it over the brand colour and needs its
 * transparency. Replaces (and deletes) any earlier logo.
 */
export async function setLogo(ctx: AppContext, userId: number, file: UploadedFile | null): Promise<BrandKit> {
  if (!file || file.buffer.length === 0) throw unprocessable(BRAND_KIT_MESSAGES.logoType);
  const clean = await sanitizeImage(file.buffer);
  if (clean.type !== 'png' && clean.type !== 'webp') throw new HttpError(415, BRAND_KIT_MESSAGES.logoType);
  if (Math.min(clean.width, clean.height) < BRAND_KIT_LIMITS.logoMinSide)
    throw unprocessable(BRAND_KIT_MESSAGES.logoTooSmall);
  const key = `users/${userId}/brand/${crypto.randomUUID()}.${clean.ext}`;
  await ctx.files.put(key, clean.data, clean.mime);
  const row = await brandKitsRepository.find(ctx.db.kysely, userId);
  let saved: BrandKitRow;
  try {
    saved = await brandKitsRepository.upsert(ctx.db.kysely, userId, {
      ...valuesOf(toBrandKit(row), row),
      logo_key: key,
      logo_width: clean.width,
      logo_height: clean.height,
    });
  } catch (err) {
    await ctx.files.delete(key).catch(() => undefined);
    throw err;
  }
  if (row?.logo_key && row.logo_key !== key) await ctx.files.delete(row.logo_key).catch(() => undefined);
  return toBrandKit(saved);
}

/** DELETE /brand-kit/logo: removes the logo and, since it has nothing left to show, the outro card. */
export async function deleteLogo(ctx: AppContext, userId: number): Promise<BrandKit> {
  const row = await brandKitsRepository.find(ctx.db.kysely, userId);
  if (!row?.logo_key) return toBrandKit(row);
  const saved = await brandKitsRepository.upsert(ctx.db.kysely, userId, {
    ...valuesOf(toBrandKit(row), row),
    logo_key: null,
    logo_width: null,
    logo_height: null,
    outro: 0,
  });
  await ctx.files.delete(row.logo_key).catch(() => undefined);
  return toBrandKit(saved);
}

/** The style a new project or hook pack starts with: the kit's, column by column. */
export async function newStyleDefaults(ctx: Pick<AppContext, 'db'>, userId: number) {
  const kit = toBrandKit(await brandKitsRepository.find(ctx.db.kysely, userId));
  return {
    caption_style: kit.caption_style,
    cta_text: kit.cta_text,
    caption_font: kit.caption_font,
    primary_colour: kit.primary_colour,
    secondary_colour: kit.secondary_colour,
    outro: kit.outro ? 1 : 0,
  };
}

/** A project's or pack's brand look as the API shows it. */
export function brandStyleOf(row: {
  caption_font: string;
  primary_colour: string;
  secondary_colour: string;
  outro: number;
}) {
  const font = CaptionFont.safeParse(row.caption_font);
  return {
    caption_font: font.success ? font.data : DEFAULT_BRAND_KIT.caption_font,
    primary_colour: colourOr(row.primary_colour, DEFAULT_BRAND_KIT.primary_colour),
    secondary_colour: colourOr(row.secondary_colour, DEFAULT_BRAND_KIT.secondary_colour),
    outro: row.outro === 1,
  };
}

/**
 * What a render needs of the brand: the project's or pack's font and colours, the owner's current logo on
 * local disk when its outro card is on (no card when the logo has since been deleted), and whether the video
 * shows the "AI-generated" label: the owner's current kit decides, from what the video animates (decision 201).
 */
export async function renderBrandLook(
  jc: { app: Pick<AppContext, 'files' | 'db'>; workDir: string },
  userId: number,
  row: { caption_font: string; primary_colour: string; secondary_colour: string; outro: number },
  animates: { realPersonPhoto: boolean },
): Promise<BrandLook> {
  const style = brandStyleOf(row);
  let outroLogoPath: string | null = null;
  const kit = await brandKitsRepository.find(jc.app.db.kysely, userId);
  if (style.outro) {
    if (kit?.logo_key && (await jc.app.files.exists(kit.logo_key))) {
      outroLogoPath = path.join(jc.workDir, `brand-logo${path.extname(kit.logo_key)}`);
      await jc.app.files.toLocalFile(kit.logo_key, outroLogoPath);
    }
  }
  return {
    font: style.caption_font,
    primary: style.primary_colour,
    secondary: style.secondary_colour,
    outroLogoPath,
    aiLabel: aiLabelShown(aiLabelModeOf(kit), animates.realPersonPhoto),
  };
}

/** The TrueType file the engine draws a caption font with (404 when its Debian package is missing). */
export function captionFontFile(font: CaptionFontId): string {
  const file = CAPTION_FONT_FILES[font].file;
  if (!existsSync(file)) throw new HttpError(404, 'This font is not installed on the server');
  return file;
}
