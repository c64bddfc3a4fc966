import { createHash } from 'node:crypto';
import path from 'node:path';
import { projectsRepository } from '../../db/repositories/projects.ts';
import type { JobContext } from '../../jobs/definition.ts';
import { cutoutNotes } from './cutout-check.ts';
import { WorkInFlight } from './work-in-flight.ts';

/**
 * The product cut out of a project's photo, and the still a merge leaves: shared by the merge (which puts the
 * product in an actor's hand) and the project render (which needs the same cut-out when it has no merge step).
 */

/** The file a Realistic merge writes: its name tells a render the still came from the image-edit provider. */
export const REALISTIC_MERGE_FILE = 'merged-realistic.png';
export const isRealisticMerge = (key: string): boolean => key.endsWith(`/${REALISTIC_MERGE_FILE}`);

/**
 * Cut-outs being made in this process, by store key: a second merge of the same product (the user applies it to
 * several actors at once) waits for the first instead of running the same ~15 s cut-out again.
 */
const cutoutsInFlight = new WorkInFlight();

/** Where a project's product cut-out is kept: one per product image. */
export function projectCutoutKey(userId: number, projectId: number, fileKey: string): string {
  const tag = createHash('sha256').update(fileKey).digest('hex').slice(0, 16);
  return `users/${userId}/projects/${projectId}-${tag}-cutout.png`;
}

/**
 * The project's product cut-out on local disk (work dir), made once per product image and shared by the merges
 * and renders that need it at the same time (a batch row's render makes it itself: it has no merge step). Making
 * it checks and cleans its matte and stores the check on the project (decision 214); a cut-out stored before the
 * check existed is made again, so it is cleaned too.
 */
export async function projectCutout(
  jc: JobContext,
  userId: number,
  projectId: number,
  fileKey: string,
): Promise<string> {
  const key = projectCutoutKey(userId, projectId, fileKey);
  const local = path.join(jc.workDir, 'cutout.png');
  await cutoutsInFlight.join(key, async () => {
    const project = await projectsRepository.findById(jc.app.db.kysely, projectId);
    const checked = project?.cutout_file_key === fileKey && project.cutout_verdict !== null;
    if (checked && (await jc.app.files.exists(key))) return;
    const productPath = path.join(jc.workDir, `product${path.extname(fileKey)}`);
    await jc.app.files.toLocalFile(fileKey, productPath);
    const out = await jc.app.media.cutoutProduct({
      productPath,
      outDir: path.join(jc.workDir, 'cutout'),
      signal: jc.signal,
    });
    await jc.app.files.putFile(key, out.cutoutPath, 'image/png');
    await projectsRepository.setCutoutCheck(jc.app.db.kysely, projectId, fileKey, {
      verdict: out.check.verdict,
      notes: cutoutNotes(out.check),
    });
  });
  await jc.app.files.toLocalFile(key, local);
  return local;
}
