import type { Project } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { projectsRepository } from '../../db/repositories/projects.ts';
import { getProject } from './projects.ts';

/**
 * Saves `changes`, which point the project at `stored` (a file just stored) or at none, and removes the file they
 * replace (`replaced`). When the project went while the file was being checked, nothing refers to the new file,
 * so it is removed instead. Answers the project as it now is.
 */
export async function replaceProjectFile(
  ctx: AppContext,
  userId: number,
  id: number,
  files: { stored: string | null; replaced: string | null },
  changes: Parameters<typeof projectsRepository.update>[3],
): Promise<Project> {
  const updated = await projectsRepository.update(ctx.db.kysely, userId, id, changes);
  if (!updated && files.stored) {
    await ctx.files.delete(files.stored).catch(() => undefined);
    return getProject(ctx, userId, id);
  }
  if (files.replaced) await ctx.files.delete(files.replaced).catch(() => undefined);
  return getProject(ctx, userId, id);
}
