import type { HookPack } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { hookPacksRepository } from '../../db/repositories/hook-packs.ts';
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
  await hookPacksRepository.update(ctx.db.kysely, id, { music_key: key });
  if (pack.music_key) await ctx.files.delete(pack.music_key).catch(() => undefined);
  return getPack(ctx, userId, id);
}

export async function clearPackMusic(ctx: AppContext, userId: number, id: number): Promise<HookPack> {
  const pack = await getOwnedPack(ctx, userId, id);
  await hookPacksRepository.update(ctx.db.kysely, id, { music_key: null });
  if (pack.music_key) await ctx.files.delete(pack.music_key).catch(() => undefined);
  return getPack(ctx, userId, id);
}
