/**
 * The merge area (product in hand): the product put into chosen actors' hands, then one video each. Other
 * areas import it only through this file.
 */
export { checkCutoutJob, mergeCharacterJob } from './jobs.ts';
export { acceptProjectCutout, checkProjectCutout } from './cutout.ts';
export * from './merge.ts';
