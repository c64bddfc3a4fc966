/**
 * The avatars area: the user's actors and the seeded catalogue. Other areas import it only through this file.
 */
export * from './avatars.ts';
export { seedActorCatalogue } from './catalogue.ts';
export { addCreator, deleteCreator, getCreator, listCreators, renameCreator } from './creators.ts';
export { renderCreatorPreviewJob } from './jobs.ts';
export { requestTalkingPreview } from './talking-preview.ts';
