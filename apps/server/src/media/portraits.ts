import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Actor } from '@hookreel/contracts';
import { catalogueActorSpec, renderActorPortrait } from '@hookreel/engine';

/** Bump when the engine's drawing of actors changes, so cached portraits are redrawn. */
const ENGINE_ACTORS_VERSION = 'actors-v6-rig';

/**
 * The engine's procedural portrait for a catalogue actor (576x1024 PNG). Portraits are deterministic, so they are
 * cached on local disk by their spec: every fresh DATA_DIR (a test, a new worker) copies the 12 files instead of
 * drawing them again.
 */
export async function drawCatalogueActor(actor: Actor): Promise<Buffer | Uint8Array> {
  const spec = catalogueActorSpec(actor);
  const version = createHash('sha256').update(JSON.stringify(spec)).update(ENGINE_ACTORS_VERSION).digest('hex');
  const cached = path.join(tmpdir(), 'hookreel-actor-cache', `${version.slice(0, 32)}.png`);
  try {
    return await readFile(cached);
  } catch {
    const png = await renderActorPortrait(spec);
    await mkdir(path.dirname(cached), { recursive: true });
    await writeFile(`${cached}.${process.pid}.tmp`, png);
    await rename(`${cached}.${process.pid}.tmp`, cached);
    return png;
  }
}
