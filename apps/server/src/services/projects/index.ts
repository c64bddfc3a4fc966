/** The projects area (moving in piece by piece): queueing a project's video. */
export { queueProjectVideo } from './queue.ts';
