import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { preparePhoto, drawState } from './src/talk/actor.ts';
import type { FaceState } from './src/talk/face.ts';
const face = JSON.parse(readFileSync('/tmp/w28b-astronaut-face.json', 'utf8'));
let t = Date.now();
const p = await preparePhoto({ photo: '/tmp/w28b-portrait.png', face, width: 720, height: 1280 });
console.log('prep', Date.now() - t, p.crop, p.tris.length / 3, p.colours);
const states: FaceState[] = [
  { mouth: 'rest', amount: 1, eyes: 'open', head: { tilt: 0, down: 0 } },
  { mouth: 'aa', amount: 1, eyes: 'open', head: { tilt: 0, down: 0 } },
  { mouth: 'ee', amount: 1, eyes: 'half', head: { tilt: 1.2, down: 0 } },
  { mouth: 'oo', amount: 1, eyes: 'closed', head: { tilt: -1.2, down: 0.02 } },
  { mouth: 'fv', amount: 1, eyes: 'open', head: { tilt: 0, down: 0 } },
  { mouth: 'oh', amount: 0.5, eyes: 'left', head: { tilt: 0, down: 0 } },
];
const tiles = [];
for (const s of states) {
  t = Date.now();
  const crop = drawState(p, s);
  console.log(s.mouth, Date.now() - t, 'ms');
  tiles.push(await sharp(Buffer.from(crop), { raw: { width: p.crop.w, height: p.crop.h, channels: 4 } }).png().toBuffer());
}
const W = p.crop.w, H = p.crop.h;
await sharp({ create: { width: W * 3, height: H * 2, channels: 4, background: '#000' } })
  .composite(tiles.map((input, i) => ({ input, left: (i % 3) * W, top: Math.floor(i / 3) * H })))
  .resize(Math.round(W * 1.5))
  .png().toFile('/tmp/w28b-states.png');
// zoom on mouth
const mouthTiles = [];
for (const s of states) {
  const crop = drawState(p, s);
  const g = p.geometry;
  mouthTiles.push(await sharp(Buffer.from(crop), { raw: { width: W, height: H, channels: 4 } }).extract({ left: Math.round(g.mouth[0] - 2.5 * g.mw), top: Math.round(g.mouth[1] - 1.6 * g.mw), width: Math.round(5 * g.mw), height: Math.round(4.2 * g.mw) }).png().toBuffer());
}
const mw = Math.round(5 * p.geometry.mw), mh = Math.round(4.2 * p.geometry.mw);
await sharp({ create: { width: mw * 3, height: mh * 2, channels: 4, background: '#000' } })
  .composite(mouthTiles.map((input, i) => ({ input, left: (i % 3) * mw, top: Math.floor(i / 3) * mh })))
  .png().toFile('/tmp/w28b-mouths.png');
