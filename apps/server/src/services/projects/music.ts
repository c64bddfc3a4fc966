import type { Project } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import { musicFile, storeUploadedMusic } from '../video/index.ts';
import type { UploadedFile } from '../../uploads/index.ts';
import { getOwnedProject, getProject } from './projects.ts';

/** The optional music bed of a project: one checked, re-encoded file per project. */

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
