import path from 'node:path';
import { hookPacksRepository as repo } from '../../db/repositories/hook-packs.ts';
import { packFilePrefix } from '../../services/hook-packs.ts';
import type { JobHandler } from '../registry.ts';
import { media, idList, loadPack, packIdOf, shortHash } from './hook-common.ts';

/**
 * generate-characters: renders the pending characters' portraits (procedural actors from their seeds).
 * Payload: { hookPackId, characterIds }. A re-run skips characters that are already rendered.
 */
export const generateHookCharacters: JobHandler = async (job, jc) => {
  const pack = await loadPack(job, jc);
  const db = jc.app.db.kysely;
  const chars = await repo.charactersByIds(db, pack.id, idList(job.payload.characterIds));
  let done = 0;
  for (const c of chars) {
    if (c.status === 'ready' && c.image_key) {
      done++;
      continue;
    }
    const out = path.join(jc.workDir, `character-${c.id}.png`);
    await media.renderActor({ seed: c.seed, description: c.prompt, outPath: out, signal: jc.signal });
    const key = `${packFilePrefix(pack)}/characters/${c.id}-${shortHash(c.seed)}.png`;
    await jc.app.files.putFile(key, out, 'image/png');
    await repo.updateCharacters(db, [c.id], { image_key: key, status: 'ready' });
    done++;
    await jc.progress((done / chars.length) * 100, `Character ${done} of ${chars.length} ready`);
  }
  return { result: { character_ids: chars.map((c) => c.id) }, logLine: `${chars.length} characters ready` };
};

/** The characters still pending are marked failed, so the wizard stops waiting for them. */
generateHookCharacters.onGaveUp = async (trx, job) => {
  const left = (await repo.charactersByIds(trx, packIdOf(job), idList(job.payload.characterIds))).filter(
    (c) => c.status !== 'ready',
  );
  await repo.updateCharacters(
    trx,
    left.map((c) => c.id),
    { status: 'failed' },
  );
};
