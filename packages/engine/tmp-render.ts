import { readFileSync } from 'node:fs';
import { renderTalkingVideo } from './src/pipeline.ts';
import { photoStatesDrawn } from './src/talk/index.ts';
const face = JSON.parse(readFileSync('/tmp/w28b-astronaut-face.json', 'utf8'));
process.env.HOOKREEL_RIG_CACHE = '/tmp/w28b-cache';
const t = Date.now();
const out = await renderTalkingVideo({
  script: 'Stop scrolling. This bottle keeps water cold for a whole day. Try it this week and feel the difference.',
  language: 'english', accent: 'american', actor: { kind: 'photo', imagePath: '/tmp/w28b-portrait.png', gender: 'female', face },
  hookText: 'Stop scrolling.', cta: 'Shop now', watermark: false, workDir: '/tmp/w28b-render1',
});
console.log(Date.now() - t, 'ms', out.videoPath, 'states', photoStatesDrawn());
console.log(JSON.stringify(out.report).slice(0, 2500));
