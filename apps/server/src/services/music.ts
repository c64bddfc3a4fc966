import type { HookPack, Project } from '@hookreel/contracts';
import type { AppContext } from '../context.ts';
import { hookPacksRepository } from '../db/repositories/hook-packs.ts';
import { projectsRepository } from '../db/repositories/projects.ts';
import { unprocessable } from '../errors.ts';
import { MUSIC_MESSAGES, storeUploadedMusic } from './music-file.ts';
import type { UploadedFile } from '../uploads/index.ts';
import { getOwnedPack, getPack } from './hook-packs.ts';
import { getOwnedProject, getProject } from './projects.ts';

/** The optional music bed of a project or hook pack: one checked, re-encoded file per owner resource. */

const musicFile = (file: UploadedFile | null): Buffer => {
  if (!file || file.fieldname !== 'music') throw unprocessable(MUSIC_MESSAGES.broken);
  return file.buffer;
};

/** PUT /projects/{id}/music: the owner's project gets a checked, re-encoded music bed; the old one is removed. */
export async function setProjectMusic(
  ctx: AppContext,
  userId: number,
  id: number,
  file: UploadedFile | null,
): Promise<Project> {
  const project = await getOwnedProject(ctx, userId, id);
  const { key } = await storeUploadedMusic(ctx, { userId, area: 'projects', buffer: musicFile(file) });
  const updated = await projectsRepository.update(ctx.db.kysely, userId, id, { music_key: key });
  if (!updated) {
    await ctx.files.delete(key).catch(() => undefined);
    return getProject(ctx, userId, id);
  }
  if (project.music_key) await ctx.files.delete(project.music_key).catch(() => undefined);
  return getProject(ctx, userId, id);
}

export async function clearProjectMusic(ctx: AppContext, userId: number, id: number): Promise<Project> {
  const project = await getOwnedProject(ctx, userId, id);
  await projectsRepository.update(ctx.db.kysely, userId, id, { music_key: null });
  if (project.music_key) await ctx.files.delete(project.music_key).catch(() => undefined);
  return getProject(ctx, userId, id);
}

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
