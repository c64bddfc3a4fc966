import { rmSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * The API and worker entry points bundled into plain JavaScript for the scale clusters. Under the tsx loader a
 * child spends about 3 s of CPU compiling the server and the engine before it serves; a bundle starts in about a
 * third of that. The worker-kills run boots two dozen workers on two cores, so that CPU is most of what the
 * clusters cost beside the renders themselves.
 *
 * Everything of ours (the server, @hookreel/engine and @hookreel/contracts) goes into the bundle; npm packages
 * stay imports, resolved from the repository's node_modules because the bundle is written inside it. A module
 * that finds a file beside itself through import.meta keeps its own location: the two engine helpers it starts
 * (the eSpeak and image cut-out children) are found where they are in the source tree.
 */

const OUT_ROOT = fileURLToPath(new URL('../../../../node_modules/.cache/hookreel-scale/', import.meta.url));
const SERVER_SRC = path.resolve(import.meta.dirname, '../../src');

export interface ScaleEntries {
  api: string;
  worker: string;
}

let bundled: Promise<ScaleEntries> | undefined;

/** Whether a process with this pid is still running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the bundle once per test process (about a second), in a folder of its own. The folder goes when the
 * process exits normally; a test worker that is ended by a signal leaves it behind, for the next build to remove.
 */
export function scaleEntries(): Promise<ScaleEntries> {
  bundled ??= (async () => {
    const outdir = path.join(OUT_ROOT, String(process.pid));
    await mkdir(outdir, { recursive: true });
    process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
    for (const name of await readdir(OUT_ROOT)) {
      if (/^\d+$/.test(name) && !running(Number(name)))
        await rm(path.join(OUT_ROOT, name), { recursive: true, force: true });
    }
    await build({
      entryPoints: { api: path.join(SERVER_SRC, 'main.ts'), worker: path.join(SERVER_SRC, 'worker.ts') },
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      plugins: [
        {
          name: 'hookreel-scale',
          setup(b) {
            // npm packages and node: built-ins stay imports; our workspace packages are bundled.
            b.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@hookreel/') ? undefined : { path: args.path, external: true },
            );
            b.onLoad({ filter: /\.ts$/ }, async (args) => {
              const source = await readFile(args.path, 'utf8');
              const contents = source
                .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
                .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)));
              return { contents, loader: 'ts' };
            });
          },
        },
      ],
    });
    return { api: path.join(outdir, 'api.mjs'), worker: path.join(outdir, 'worker.mjs') };
  })();
  return bundled;
}
