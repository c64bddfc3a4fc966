import path from 'node:path';
import type { JobContext } from '../../jobs/definition.ts';
import { WorkInFlight } from './work-in-flight.ts';

/**
 * Photoreal pictures of catalogue actors being made in this process, by store key: two Realistic jobs of one user
 * with the same actor (a merge applied to several products, a batch of upgrades) wait for one image generation
 * instead of paying for two.
 */
const inFlight = new WorkInFlight();

/** Where a user's photoreal picture of a catalogue actor is kept: one per actor and images request (tag). */
export const catalogueActorPhotoKey = (userId: number, catalogueActorId: string, tag: string): string =>
  `users/${userId}/actors/catalogue-${catalogueActorId}-photoreal-${tag}.png`;

/**
 * A catalogue actor as a real-looking person on local disk (`<workDir>/<name>`), for the Realistic stages: the
 * catalogue's pictures are drawings, and a talking-actor provider animates a drawing as a cartoon. Made by the
 * images provider once per user, actor and images request, kept in the file store, and its usage recorded on the
 * job that made it only. Null when the images stage is local: the caller keeps the drawing (and the log says so).
 */
export async function realisticCatalogueActor(
  jc: JobContext,
  userId: number,
  catalogueActorId: string,
  name = 'actor-photoreal.png',
): Promise<string | null> {
  const tag = jc.app.media.catalogueActorPhotoTag(catalogueActorId);
  if (!tag) {
    await jc.log('The catalogue actor stays drawn: set OPENAI_IMAGE_MODEL for a real-looking one (docs/providers.md)');
    return null;
  }
  const key = catalogueActorPhotoKey(userId, catalogueActorId, tag);
  // Another job's generation that failed or was cancelled is made again here (this job pays for it then).
  await inFlight.join(key, async () => {
    if (await jc.app.files.exists(key)) return;
    await jc.log('Making the catalogue actor photoreal (one image, kept for your next videos)');
    const made = path.join(jc.workDir, 'catalogue-photoreal-made.png');
    await jc.app.media.catalogueActorPhoto({
      catalogueActorId,
      outPath: made,
      signal: jc.signal,
      onUsage: (usage) => jc.recordUsage(usage),
    });
    await jc.app.files.putFile(key, made, 'image/png');
  });
  const local = path.join(jc.workDir, name);
  await jc.app.files.toLocalFile(key, local);
  return local;
}
