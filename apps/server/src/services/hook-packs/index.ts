/**
 * The hook-pack area: a product photo becomes characters, previews and a matrix of hook videos (the pack, its
 * jobs, files, placement, status and music). Other areas import it only through this file.
 */
export { generateCharactersJob, generatePreviewJob, processProductJob, renderHookVideoJob } from './jobs.ts';
export * from './music.ts';
export * from './packs.ts';
