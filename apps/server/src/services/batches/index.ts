/**
 * The batches area: a CSV of rows becomes projects and their videos. Other areas import it only through this
 * file.
 */
export * from './batches.ts';
