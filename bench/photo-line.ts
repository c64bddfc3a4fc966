/**
 * The photo actor's line of the render bench alone (`npm run bench:photo`): 12 videos of the test portrait next to
 * their bare encode, as `npm run bench:render` prints it after the illustrated actor's rounds (bench/photo.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { photoLine } from './photo.ts';

const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-photo-'));
try {
  await photoLine(dir, Number(process.env.BENCH_VIDEOS ?? 12));
} finally {
  await rm(dir, { recursive: true, force: true });
}
