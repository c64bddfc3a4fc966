/**
 * Hook matrix: 3 hooks × 2 actors × 2 calls to action (12 videos, 9:16) through the engine's talking-video
 * pipeline, each cell rendered twice, one after the other: with the work a pack shares (one spoken take per hook
 * and voice, one set of actor frames per actor, kept across the cells) and from scratch (a fresh take, the actor's
 * frames drawn again in an empty cache). Interleaving the two cancels drift in the machine's load; one render
 * before the clock starts warms the process. The difference is the shared work and nothing else.
 * Prints: matrix: 3 hooks x 2 actors x 2 CTAs = 12 videos (9:16) in <s> s with shared work, <s> s from scratch:
 * <s> s saved (<pct>%); <n> voice takes and 2 actors' frames drawn for 12 videos
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import {
  actorFromDescription,
  folderVoiceStore,
  localVoice,
  renderTalkingVideo,
  sharedVoice,
  type ActorSpec,
  type VoiceSynthesizer,
} from '../packages/engine/src/index.ts';

const HOOKS = ['Glow all day', 'My skin finally looks rested', 'Stop scrolling, this serum works'];
const ACTORS = ['young woman runner with a ponytail', 'bearded man in a denim jacket'];
const CTAS = ['Shop now', 'Link in bio'];
const PLACEMENT = { position_x: 300, position_y: 720, scale: 0.32, rotation: -6 };

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hookreel-bench-matrix-'));
  const before = process.env.HOOKREEL_RIG_CACHE;
  try {
    const cutoutPath = path.join(dir, 'cutout.png');
    await sharp(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600">
        <rect x="130" y="150" width="140" height="380" rx="30" fill="#d62d2d"/>
        <rect x="165" y="80" width="70" height="80" rx="8" fill="#333333"/>
        <rect x="150" y="270" width="100" height="90" fill="#f5e6c8"/></svg>`),
    )
      .png()
      .toFile(cutoutPath);
    const specs = ACTORS.map((d, i) => actorFromDescription(d, i));
    const cells = HOOKS.flatMap((hook) => specs.flatMap((spec) => CTAS.map((cta) => ({ hook, spec, cta }))));

    let n = 0;
    const render = async (c: { hook: string; spec: ActorSpec; cta: string }, voice: VoiceSynthesizer) => {
      const workDir = path.join(dir, `render-${n++}`);
      const started = performance.now();
      await renderTalkingVideo({
        script: c.hook,
        hookText: c.hook,
        language: 'english',
        accent: 'american',
        actor: { kind: 'procedural', spec: c.spec },
        product: { cutoutPath, placement: PLACEMENT },
        cta: c.cta,
        watermark: false,
        voice,
        workDir,
      });
      const seconds = (performance.now() - started) / 1000;
      await rm(workDir, { recursive: true, force: true });
      return seconds;
    };

    // Warm-up: another actor, another line, its own cache.
    process.env.HOOKREEL_RIG_CACHE = path.join(dir, 'warm-up');
    await render({ hook: 'Hello there', spec: actorFromDescription('warm-up actor', 9), cta: 'Go' }, localVoice);

    const takes = new Set<string>();
    const shared = sharedVoice(localVoice, folderVoiceStore(path.join(dir, 'takes')), {
      voiceName: 'local',
      onSynthesised: (k) => takes.add(k),
    });
    let withSharing = 0;
    let fromScratch = 0;
    for (const [i, c] of cells.entries()) {
      process.env.HOOKREEL_RIG_CACHE = path.join(dir, 'shared-cache');
      withSharing += await render(c, shared);
      process.env.HOOKREEL_RIG_CACHE = path.join(dir, `scratch-${i}`);
      fromScratch += await render(c, localVoice);
      await rm(path.join(dir, `scratch-${i}`), { recursive: true, force: true });
    }
    const saved = fromScratch - withSharing;
    console.log(
      `matrix: ${HOOKS.length} hooks x ${ACTORS.length} actors x ${CTAS.length} CTAs = ${cells.length} videos (9:16) in ${withSharing.toFixed(1)} s with shared work, ${fromScratch.toFixed(1)} s from scratch: ${saved.toFixed(1)} s saved (${((saved / fromScratch) * 100).toFixed(0)}%); ${takes.size} voice takes and ${ACTORS.length} actors' frames drawn for ${cells.length} videos`,
    );
  } finally {
    if (before === undefined) delete process.env.HOOKREEL_RIG_CACHE;
    else process.env.HOOKREEL_RIG_CACHE = before;
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
