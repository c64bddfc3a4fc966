import { ACTORS, type Actor } from '@hookreel/contracts';
import { HAND_ANCHOR } from '../../media/values.ts';
import sharp from 'sharp';
import type { AppContext } from '../../context.ts';
import { avatarsRepository } from '../../db/repositories/avatars.ts';

/** Draws a catalogue actor as a 576x1024 PNG portrait (ctx.media.drawCatalogueActor unless a test swaps it). */
export type RenderActorPortrait = (actor: Actor) => Promise<Buffer | Uint8Array>;

/**
 * Default "product in hand" box per actor, in the 576x1024 frame. Widths differ on purpose so the size filter
 * (small < 80, medium 80-150, large > 150) has actors in every class: 4 small, 4 medium, 4 large.
 */
const CATALOGUE_WIDTHS = [64, 120, 180, 72, 110, 168, 76, 136, 200, 60, 96, 160] as const;
const CATALOGUE_TILTS = [0, -6, 4, 8, 0, -4, 6, -8, 0, 5, -5, 3] as const;

export function catalogueBounds(actor: Actor) {
  const i = Number(actor.id) - 1;
  const width = CATALOGUE_WIDTHS[i % CATALOGUE_WIDTHS.length]!;
  const height = Math.round(width * 1.25);
  const rotation = CATALOGUE_TILTS[i % CATALOGUE_TILTS.length]!;
  // The hand the engine draws every actor holding a product with.
  const cx = HAND_ANCHOR.x;
  const cy = HAND_ANCHOR.y;
  const x = Math.round(cx - width / 2);
  const y = Math.round(cy - height / 2);
  return { x, y, width, height, rotation, corners: cornersOf(x, y, width, height, rotation) };
}

/** The four corners (top-left, top-right, bottom-right, bottom-left) of a box rotated about its centre. */
export function cornersOf(x: number, y: number, w: number, h: number, rotationDeg: number): number[] {
  const cx = x + w / 2;
  const cy = y + h / 2;
  const r = (rotationDeg * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const pts: Array<[number, number]> = [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ];
  return pts.flatMap(([dx, dy]) => [round2(cx + dx * cos - dy * sin), round2(cy + dx * sin + dy * cos)]);
}
const round2 = (n: number) => Math.round(n * 100) / 100;

export const catalogueKey = (actor: Actor) => `catalogue/actor-${actor.id}.png`;

/**
 * Makes sure the 12 catalogue actors exist as avatars. Idempotent and safe when several processes boot at
 * once: keys are deterministic, writes are atomic, and the row insert is ON CONFLICT DO NOTHING on the unique
 * catalogue_actor_id. Actors an admin deleted (tombstones) are not brought back.
 */
export async function seedActorCatalogue(
  ctx: Pick<AppContext, 'db' | 'files' | 'media'>,
  opts: { render?: RenderActorPortrait } = {},
): Promise<{ inserted: number }> {
  const db = ctx.db.kysely;
  const existing = new Set((await avatarsRepository.catalogueRows(db)).map((r) => r.catalogue_actor_id));
  const missing = ACTORS.filter((a) => !existing.has(a.id));
  const render = opts.render ?? ((actor: Actor) => ctx.media.drawCatalogueActor(actor));
  let inserted = 0;
  for (const actor of missing) {
    const key = catalogueKey(actor);
    const png = await sharp(Buffer.from(await render(actor)))
      .png()
      .toBuffer();
    await ctx.files.put(key, png, 'image/png');
    const b = catalogueBounds(actor);
    const added = await avatarsRepository.insertCatalogueActorIfMissing(db, {
      owner_user_id: null,
      created_by_user_id: null,
      image_key: key,
      prompt: describeActor(actor),
      name: actor.name,
      catalogue_actor_id: actor.id,
      gender: actor.gender,
      race: actor.race,
      background: actor.background,
      x: b.x,
      y: b.y,
      width: b.width,
      height: b.height,
      rotation: b.rotation,
      corners: JSON.stringify(b.corners),
    });
    if (added) inserted += 1;
  }
  return { inserted };
}

export function describeActor(actor: Actor): string {
  const race = actor.race.replace('_', ' ');
  return `${race} ${actor.gender} actor, ${actor.background} background`;
}
