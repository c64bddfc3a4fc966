import { runProcess } from './process.ts';

/**
 * Stands in for a worker mid-render: starts a long ffmpeg through runProcess and tells the parent (over IPC) that
 * it is running. The ffmpeg writes nothing to its pipes, so only a parent-death signal can end it early.
 */
void runProcess('ffmpeg', [
  '-nostdin',
  '-f',
  'lavfi',
  '-i',
  'testsrc=size=320x240:rate=25',
  '-t',
  '600',
  '-f',
  'null',
  '-',
]).catch(() => undefined);
setTimeout(() => process.send?.('started'), 300);
setInterval(() => undefined, 1000);
