/**
 * The merge area (product in hand): the product put into chosen actors' hands, then one video each. Other
 * areas import it only through this file.
 */
export { mergeCharacterJob } from './jobs.ts';
export * from './merge.ts';
