import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { CaptionStyle } from '@hookreel/contracts';
import { actorFromDescription } from '../actors/index.ts';
import { cutoutProduct } from '../cutout/index.ts';
import { renderTalkingVideo } from '../pipeline.ts';
import { FFMPEG } from '../util/media.ts';
import { runProcess } from '../util/process.ts';

/**
 * `npm run landing-samples`: renders the landing page's sample videos with today's engine (what a free Draft
 * looks like), so the page shows real output instead of placeholder slides. Each sample is written as
 * `<id>.mp4` (re-encoded small for the web, played only when asked) and `<id>.jpg` (its poster), plus
 * `samples.json` listing them. The product pictures are drawn here, so every asset is our own.
 */
interface Sample {
  id: string;
  title: string;
  actor: string;
  hook: string;
  script: string;
  cta: string;
  captionStyle: CaptionStyle;
  product: { body: string; cap: string; label: string; text: string; shape: 'bottle' | 'jar' | 'can' };
}

const SAMPLES: Sample[] = [
  {
    id: 'skincare',
    title: 'Skincare · Product in hand',
    actor: 'young woman in her 20s with long brown hair',
    hook: 'My skin was dull until I found this.',
    script: 'Two drops every morning and it glows by lunch. Light, no sticky feel.',
    cta: 'Try GLOW today',
    captionStyle: 'highlight',
    product: { body: '#e8a0b4', cap: '#3a2a30', label: '#fff4f7', text: 'GLOW', shape: 'bottle' },
  },
  {
    id: 'supplements',
    title: 'Supplements · Hook pack',
    actor: 'man in his 30s with a short beard',
    hook: 'POV: your 3pm slump is gone.',
    script: 'One scoop in water after lunch. No crash, no jitters, just focus.',
    cta: 'Get 20% off',
    captionStyle: 'pop',
    product: { body: '#2f9e77', cap: '#f2f2f2', label: '#ffffff', text: 'FOCUS', shape: 'jar' },
  },
  {
    id: 'coffee',
    title: 'Coffee · AI spokesperson',
    actor: 'older woman in her 60s with grey hair and glasses',
    hook: 'This cold brew beats my café order.',
    script: 'Smooth, not bitter, and ready straight from the fridge.',
    cta: 'Order a can',
    captionStyle: 'boxed',
    product: { body: '#c0612b', cap: '#9aa0a6', label: '#fbe9d6', text: 'BREW', shape: 'can' },
  },
];

function productSvg(p: Sample['product']): string {
  const body =
    p.shape === 'bottle'
      ? `<rect x="180" y="200" width="120" height="360" rx="30" fill="${p.body}"/>
         <rect x="210" y="120" width="60" height="90" rx="8" fill="${p.cap}"/>`
      : p.shape === 'jar'
        ? `<rect x="140" y="240" width="200" height="300" rx="26" fill="${p.body}"/>
           <rect x="150" y="190" width="180" height="60" rx="10" fill="${p.cap}"/>`
        : `<rect x="160" y="170" width="160" height="390" rx="18" fill="${p.body}"/>
           <rect x="160" y="160" width="160" height="24" rx="10" fill="${p.cap}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640">
    <rect width="480" height="640" fill="#ffffff"/>${body}
    <rect x="170" y="320" width="140" height="90" fill="${p.label}"/>
    <text x="240" y="378" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="${p.body}"
      text-anchor="middle">${p.text}</text></svg>`;
}

const outDir = path.resolve(process.argv[2] ?? 'apps/web/public/landing-samples');
const work = await mkdtemp(path.join(os.tmpdir(), 'hookreel-landing-samples-'));
try {
  await mkdir(outDir, { recursive: true });
  const listed: Array<{ id: string; title: string; hook: string; durationSec: number }> = [];
  for (const [i, s] of SAMPLES.entries()) {
    const photo = path.join(work, `${s.id}.png`);
    await sharp(Buffer.from(productSvg(s.product)))
      .png()
      .toFile(photo);
    const { cutoutPath } = await cutoutProduct({ productPath: photo, outDir: path.join(work, s.id), useModel: false });
    const out = await renderTalkingVideo({
      script: `${s.hook} ${s.script}`,
      hookText: s.hook,
      language: 'english',
      accent: 'american',
      actor: { kind: 'procedural', spec: actorFromDescription(s.actor, i) },
      product: { cutoutPath, placement: { position_x: 370, position_y: 700, scale: 0.35, rotation: -6 } },
      captionStyle: s.captionStyle,
      cta: s.cta,
      watermark: false,
      workDir: path.join(work, `render-${s.id}`),
    });
    const failing = out.report.checks.filter((c) => c.level === 'fail');
    if (failing.length) throw new Error(`${s.id}: quality checks failed: ${failing.map((c) => c.id).join(', ')}`);
    // Small for the web: half the pixels, a higher CRF; the sound stays as rendered.
    const mp4 = path.join(outDir, `${s.id}.mp4`);
    await runProcess(FFMPEG, [
      ...['-y', '-v', 'error', '-i', out.videoPath, '-vf', 'scale=360:640', '-c:v', 'libx264', '-crf', '30'],
      ...['-preset', 'slow', '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', mp4],
    ]);
    await runProcess(FFMPEG, [
      ...['-y', '-v', 'error', '-ss', '2.5', '-i', out.videoPath, '-frames:v', '1'],
      ...['-vf', 'scale=360:640', '-q:v', '5', path.join(outDir, `${s.id}.jpg`)],
    ]);
    listed.push({ id: s.id, title: s.title, hook: s.hook, durationSec: Math.round(out.durationSec * 10) / 10 });
    console.log(`[landing-samples] ${s.id}: ${out.durationSec.toFixed(1)} s, ${(await stat(mp4)).size} bytes`);
  }
  await writeFile(path.join(outDir, 'samples.json'), JSON.stringify(listed, null, 2) + '\n');
} finally {
  await rm(work, { recursive: true, force: true });
}
