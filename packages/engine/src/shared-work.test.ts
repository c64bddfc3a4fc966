import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFromDescription } from './actors/index.ts';
import { REST_POSE } from './actors/rig.ts';
import { rigFrames, rigFramesDrawn } from './motion/frames.ts';
import { poseKey, poseTimeline } from './motion/timeline.ts';
import { localVoice, type VoiceSynthesizer } from './voice/index.ts';
import { folderVoiceStore, sharedVoice } from './voice/shared.ts';

/**
 * The work a hook matrix shares between its videos is done once: one take per (hook, voice), however many calls
 * to action or same-voiced actors say it, and one set of actor frames per actor, whatever it says.
 */
describe('shared work of a hook matrix', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-shared-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('speaks a hook once per voice and hands the same take to every later video', { timeout: 60_000 }, async () => {
    const spoken: string[] = [];
    const counting: VoiceSynthesizer = {
      synthesize: (req, outDir, signal) => {
        spoken.push(`${req.gender}:${req.text}`);
        return localVoice.synthesize(req, outDir, signal);
      },
    };
    const reused: string[] = [];
    const voice = sharedVoice(counting, folderVoiceStore(path.join(dir, 'takes')), {
      voiceName: 'local',
      onReuse: (k) => reused.push(k),
    });
    const req = { text: 'Glow all day', language: 'english', accent: 'american', gender: 'female' } as const;

    // Three videos of hook 1 (CTA 1, CTA 2, another actor with the same voice), then a male actor.
    const first = await voice.synthesize(req, path.join(dir, 'v1'));
    const second = await voice.synthesize(req, path.join(dir, 'v2'));
    const third = await voice.synthesize(req, path.join(dir, 'v3'));
    await voice.synthesize({ ...req, gender: 'male' }, path.join(dir, 'v4'));

    expect(spoken).toEqual(['female:Glow all day', 'male:Glow all day']);
    expect(reused).toHaveLength(2);
    expect(second.words).toEqual(first.words);
    expect(third.durationSec).toBe(first.durationSec);
    expect(second.wavPath.startsWith(path.join(dir, 'v2'))).toBe(true);
    expect((await stat(second.wavPath)).size).toBe((await stat(first.wavPath)).size);
    expect(first.words.map((w) => w.word.toLowerCase())).toEqual(['glow', 'all', 'day']);
  });

  it('draws an actor holding the product once, and reuses its frames for every hook it says', async () => {
    const spec = actorFromDescription(`matrix actor ${Date.now()}`, 0);
    const pose = poseTimeline({
      words: [{ word: 'Glow', startSec: 0, endSec: 0.4 }],
      totalSec: 1,
      seed: spec.seed,
      beats: { hookLastWord: null, cta: null },
      gesture: false,
    }).map((s) => s.pose);
    const poses = [REST_POSE, ...pose];
    const drawnBefore = rigFramesDrawn();
    // Two videos of the actor start at once: each frame is drawn by one of them and waited for by the other.
    const [first, alongside] = await Promise.all([
      rigFrames({ spec, product: null, poses, width: 180, height: 320 }),
      rigFrames({ spec, product: null, poses, width: 180, height: 320 }),
    ]);
    expect(rigFramesDrawn() - drawnBefore).toBe(first.size);
    expect([...alongside.entries()]).toEqual([...first.entries()]);
    // Only the rest pose is kept as a picture (the poster); every pose is kept as the encoder's Y4M.
    expect([...first.entries()].filter(([, f]) => f.png).map(([k]) => k)).toEqual([poseKey(REST_POSE)]);
    const files = (m: typeof first) => [...m.values()].flatMap((f) => (f.png ? [f.png, f.y4m] : [f.y4m]));
    const drawn = await Promise.all(files(first).map(async (f) => (await stat(f)).mtimeMs));
    const again = await rigFrames({ spec, product: null, poses, width: 180, height: 320 });
    expect([...again.entries()]).toEqual([...first.entries()]);
    expect(await Promise.all(files(again).map(async (f) => (await stat(f)).mtimeMs))).toEqual(drawn);
    expect(rigFramesDrawn() - drawnBefore).toBe(first.size);
  });

  it('never redraws a frame another render finished after this one looked for it', async () => {
    const spec = actorFromDescription(`crossing actor ${Date.now()}`, 0);
    const poses = [
      REST_POSE,
      ...poseTimeline({
        words: ['Glow', 'all', 'day', 'long'].map((word, i) => ({ word, startSec: i * 0.4, endSec: i * 0.4 + 0.3 })),
        totalSec: 2,
        seed: spec.seed,
        beats: { hookLastWord: null, cta: null },
        gesture: false,
      }).map((s) => s.pose),
    ];
    const drawnBefore = rigFramesDrawn();
    // Both look first and find nothing; then one draws from the front, the other from the back, and they cross.
    const [forward, backward] = await Promise.all([
      rigFrames({ spec, product: null, poses, width: 180, height: 320 }),
      rigFrames({ spec, product: null, poses: [...poses].reverse(), width: 180, height: 320 }),
    ]);
    expect(forward.size).toBeGreaterThan(4);
    expect(rigFramesDrawn() - drawnBefore).toBe(forward.size);
    expect(new Map(backward)).toEqual(new Map(forward));
  });
});
