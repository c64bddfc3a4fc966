/**
 * What the merge, project and avatar areas share about the people in a video: a catalogue actor made photoreal,
 * the product cut out of its photo and its check, and one piece of work shared by the jobs that need it at once. Other areas
 * import it only through this file.
 */
export { realisticCatalogueActor } from './catalogue-actor-photo.ts';
export { REALISTIC_MERGE_FILE, isRealisticMerge, projectCutout, projectCutoutKey } from './product-cutout.ts';
export { storedPlacement } from './placement.ts';
export { avatarFace } from './face.ts';
export { cutoutAwaitsReview, cutoutCheckOf, cutoutNotes } from './cutout-check.ts';
export {
  getActorLook,
  localLook,
  looksForCards,
  makeMouthStills,
  makeMouthStillsJob,
  makePhotoreal,
  makePhotorealActorJob,
} from './looks.ts';
