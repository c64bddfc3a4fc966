/**
 * The projects area: a project (script, actors, look, voice-over, music) and queueing its video. Other areas
 * import it only through this file.
 */
export { renderProjectVideoJob } from './jobs.ts';
export * from './music.ts';
export * from './projects.ts';
export { queueProjectVideo } from './queue.ts';
export * from './voice-over.ts';
