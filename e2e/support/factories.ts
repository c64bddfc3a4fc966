import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { pcmWav } from '@hookreel/engine/testing';
import { signIn, uniqueEmail } from './auth.ts';

const tag = (): string => randomBytes(3).toString('hex');

/** A project name nobody else in this run uses. */
export const projectName = (prefix = 'E2E project'): string => `${prefix} ${tag()}`;

/**
 * A short ad script: two short sentences, about two seconds of speech. The specs using it check screens, jobs and
 * credits around a real render, not the speech itself: every second of script is render time in every one of them.
 */
export const adScript = (product = 'Glow serum'): string => `Meet ${product}. Try it today!`;

/**
 * Writes a product photo to a temp file: a coloured bottle (body, shoulder, cap and a label) on a white
 * background, as a seller would shoot it. Returns the file path. `transparent`: the background left transparent,
 * a photo that is its own cut-out (no model run, docs/decisions/151), for specs that are not about the cut-out.
 */
export async function productPhoto({
  colour = '#d62f4b',
  width = 600,
  height = 800,
  transparent = false,
}: { colour?: string; width?: number; height?: number; transparent?: boolean } = {}): Promise<string> {
  const bw = Math.round(width * 0.34);
  const bh = Math.round(height * 0.55);
  const bx = Math.round((width - bw) / 2);
  const by = Math.round(height * 0.3);
  const neckW = Math.round(bw * 0.36);
  const capH = Math.round(height * 0.08);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    ${transparent ? '' : '<rect width="100%" height="100%" fill="#ffffff"/>'}
    <rect x="${(width - neckW) / 2}" y="${by - capH * 2}" width="${neckW}" height="${capH}" rx="6" fill="#222222"/>
    <rect x="${(width - neckW) / 2}" y="${by - capH}" width="${neckW}" height="${capH + 20}" fill="${colour}"/>
    <rect x="${bx}" y="${by}" width="${bw}" height="${bh}" rx="${Math.round(bw * 0.18)}" fill="${colour}"/>
    <rect x="${bx + 12}" y="${by + bh * 0.35}" width="${bw - 24}" height="${bh * 0.25}" rx="8" fill="#fbe9c6"/>
  </svg>`;
  const dir = mkdtempSync(path.join(tmpdir(), 'hookreel-product-'));
  const file = path.join(dir, `bottle-${tag()}.png`);
  await sharp(Buffer.from(svg)).png().toFile(file);
  return file;
}

/** /projects/new → 'Create Project' → the project editor. Returns the project id. */
export async function createProjectInUi(page: Page, name: string): Promise<number> {
  await page.goto('/projects/new');
  await expect(page.getByRole('heading', { name: 'Create New Project' })).toBeVisible();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create Project' }).click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  return Number(/\/projects\/(\d+)$/.exec(page.url())![1]);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const BEST_MATCH = 'Best match';
// Marks a tile carries beside the actor's name: the best match, and what the actor looks like (decision 202).
const TILE_MARKS = [BEST_MATCH, 'Illustrated', 'Photo · yours', 'Photo'];
const TILE_MARK = `(?:${TILE_MARKS.map(escapeRegExp).join('|')})`;
/** The actor's name on a picker tile, without its marks. */
const tileName = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !TILE_MARKS.includes(l))
    .join(' ');

/** The editor's 'Add Character' flow: description → picker → 'Add {count} Characters'. Returns picked names. */
export async function addCharacters(
  page: Page,
  description: string,
  count = 1,
  opts: { screenshot?: string } = {},
): Promise<string[]> {
  await page.getByRole('button', { name: 'Add Character' }).click();
  const describe = page.getByRole('dialog', { name: 'Describe your character' });
  await expect(describe.getByRole('button', { name: 'Next' })).toBeDisabled();
  await describe.getByLabel('Character description').fill(description);
  await describe.getByRole('button', { name: 'Next' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose characters' });
  // Only the actor grid: an unpressed-button query over the whole dialog would also match Cancel while loading.
  const grid = picker.getByRole('group', { name: 'Actors' });
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  const free = grid.getByRole('button', { pressed: false, disabled: false });
  await expect(free.first()).toBeVisible();
  if (opts.screenshot) {
    await expect(grid.locator('img').first()).toHaveJSProperty('complete', true);
    await picker.screenshot({ path: opts.screenshot });
  }
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) {
    // The first tile of a described search also carries the 'Best match' mark (decision 142).
    const name = tileName(await free.first().innerText());
    names.push(name);
    // The list may still be settling as the dialog opens; a click on a replaced tile is retried until it sticks.
    const tile = grid.getByRole('button', {
      name: new RegExp(`^(${TILE_MARK} )*${escapeRegExp(name)}( ${TILE_MARK})*$`),
    });
    await expect(async () => {
      if ((await tile.getAttribute('aria-pressed')) !== 'true') await tile.click();
      await expect(tile).toHaveAttribute('aria-pressed', 'true', { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
  }
  await expect(picker.getByRole('button', { pressed: true })).toHaveCount(count);
  await picker.getByRole('button', { name: `Add ${count} Characters` }).click();
  await expect(picker).toBeHidden();
  return names;
}

/**
 * A new user (`who` names their address) signs in and makes a project titled `title` with one actor, a young
 * woman, ending in the project editor: where the single-video specs start. Returns the project's name.
 */
export async function projectWithOneActor(page: Page, who: string, title: string): Promise<string> {
  await signIn(page, uniqueEmail(who));
  const name = projectName(title);
  await createProjectInUi(page, name);
  await addCharacters(page, 'young woman in her 20s with long brown hair', 1);
  return name;
}

/** Plays a <video> muted (autoplay policy) and waits until it has real frames and advances. */
export async function expectVideoPlays(video: Locator): Promise<{ duration: number; poster: string }> {
  await expect(video).toBeVisible();
  await expect(video).toHaveAttribute('poster', /\S/);
  await video.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    await el.play();
  });
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(0.2);
  const info = await video.evaluate((el: HTMLVideoElement) => ({
    duration: el.duration,
    poster: el.poster,
    error: el.error?.message ?? null,
  }));
  expect(info.error).toBeNull();
  expect(info.duration).toBeGreaterThan(1);
  return info;
}

/** How many pixels of an image are close to the given colour (after scaling it to 144x256), via sharp. */
export async function pixelsNear(image: Buffer, colour: string, tolerance = 60): Promise<number> {
  const target = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
  const { data, info } = await sharp(image)
    .resize(144, 256, { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const d =
      Math.abs(data[i]! - target[0]!) + Math.abs(data[i + 1]! - target[1]!) + Math.abs(data[i + 2]! - target[2]!);
    if (d <= tolerance) n += 1;
  }
  return n;
}

/**
 * A music bed as a user picks it: a real WAV file (`seconds` of two soft chords alternating), made here so the
 * e2e needs no audio asset.
 */
export function musicBedWav(seconds = 3, rate = 22050): { name: string; mimeType: string; buffer: Buffer } {
  const samples = Math.round(seconds * rate);
  const pcm = new Int16Array(samples);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const chord = Math.floor(t * 2) % 2 === 0 ? [220, 277.2, 329.6] : [196, 246.9, 293.7];
    const v = chord.reduce((sum, f) => sum + Math.sin(2 * Math.PI * f * t), 0) / chord.length;
    pcm[i] = Math.round(v * 6000);
  }
  return { name: 'bed.wav', mimeType: 'audio/wav', buffer: pcmWav(pcm, rate) };
}

/**
 * The product-in-hand picker's built-in catalogue actors ('Actor N'): photo actors other specs add to the avatar
 * library are listed too, and may share a name.
 */
export const catalogueTiles = (page: Page) =>
  page.getByTestId('actor-tile').filter({ has: page.locator('span.truncate', { hasText: /^Actor \d+$/ }) });
