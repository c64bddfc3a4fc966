import type { HookPack } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository, type HookPackRow } from '../../db/repositories/hook-packs.ts';
import type { UploadedFile } from '../../uploads/index.ts';
import { getOwnedPack, getPack } from './packs.ts';
import { musicFile, storeUploadedMusic } from '../video/index.ts';

/** The optional music bed of a hook pack: one checked, re-encoded file per pack. */

/** PUT /hooks/{id}/music: the same for a hook pack. */
export async function setPackMusic(
  ctx: AppContext,
  userId: number,
  id: number,
  file: UploadedFile | null,
): Promise<HookPack> {
  const pack = await getOwnedPack(ctx, userId, id);
  const { key } = await storeUploadedMusic(ctx, { userId, area: 'hook-packs', buffer: musicFile(file) });
  return replacePackMusic(ctx, userId, pack, key);
}

export async function clearPackMusic(ctx: AppContext, userId: number, id: number): Promise<HookPack> {
  return replacePackMusic(ctx, userId, await getOwnedPack(ctx, userId, id), null);
}

/** Stores `key` as the pack's music (null: none) and removes the file it replaces. */
async function replacePackMusic(ctx: AppContext, userId: number, pack: HookPackRow, key: string | null) {
  await hookPacksRepository.update(ctx.db.kysely, pack.id, { music_key: key });
  if (pack.music_key) await ctx.files.delete(pack.music_key).catch(() => undefined);
  return getPack(ctx, userId, pack.id);
}
