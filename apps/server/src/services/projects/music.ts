import type { Project } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { musicFile, storeUploadedMusic } from '../video/index.ts';
import type { UploadedFile } from '../../uploads/index.ts';
import { replaceProjectFile } from './project-files.ts';
import { getOwnedProject } from './projects.ts';

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
  return replaceProjectFile(ctx, userId, id, { stored: key, replaced: project.music_key }, { music_key: key });
}

export async function clearProjectMusic(ctx: AppContext, userId: number, id: number): Promise<Project> {
  const project = await getOwnedProject(ctx, userId, id);
  return replaceProjectFile(ctx, userId, id, { stored: null, replaced: project.music_key }, { music_key: null });
}
