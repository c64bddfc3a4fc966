import { createHash } from 'node:crypto';
import { createAvatar } from '@dicebear/core';
import { lorelei, openPeeps } from '@dicebear/collection';
import sharp from 'sharp';
import { FRAME_HEIGHT, FRAME_WIDTH, type Gender } from '../types.ts';

// Head-only CC0 styles: the body is ours, so every actor can hold a product the same way.
export const ACTOR_STYLES = ['lorelei', 'open-peeps'] as const;
export type ActorStyle = (typeof ACTOR_STYLES)[number];
export const BACKGROUNDS = ['office', 'casual', 'outdoor', 'studio'] as const;
export type Background = (typeof BACKGROUNDS)[number];
export const RACES = ['white', 'black', 'asian', 'hispanic', 'middle_eastern'] as const;
export type Race = (typeof RACES)[number];

export interface ActorSpec {
  seed: string;
  style: ActorStyle;
  gender: Gender;
  background: Background;
  race?: Race;
}

const HEAD = 440;

/** Where a held product sits in the portrait: the hand in front of the chest (frame coordinates). */
export const HAND_ANCHOR = { x: 370, y: 700 } as const;

const SKIN: Record<Race, string[]> = {
  white: ['f2d3b1', 'ecc19c', 'f5d7c4'],
  black: ['8d5524', '6b3e1f', '7a4a2a'],
  asian: ['f1c27d', 'e8b98a', 'eac086'],
  hispanic: ['c68642', 'd19a6a', 'b97a4d'],
  middle_eastern: ['c99d77', 'b88a62', 'd4a47c'],
};
const SHIRTS = ['2f6fde', 'e4572e', '17a398', '7b5ea7', 'f2a541', '33415c', 'd94f70', '4f772d'];
const HAIR = ['2c1b18', '4a312c', '724133', 'a55728', 'b58143', 'd6b370', '2c1b18', '0e0e0e'];

/** A stable pseudo-random picker from the seed, so the same description always gives the same person. */
function picker(seed: string) {
  const h = createHash('sha256').update(seed).digest();
  let i = 0;
  return <T>(list: readonly T[]): T => list[h[i++ % h.length]! % list.length]!;
}

/** Deterministic actor spec from a free-text description and an index (the n-th person of that description). */
export function actorFromDescription(description: string, index: number): ActorSpec {
  return actorFromSeed(`${description.trim().toLowerCase()}#${index}`, description);
}

/**
 * The person for a seed: gender and scene follow the description's words where it names them; style, skin and
 * everything else come from the seed, so a new seed ("regenerate the person") gives a new person of that kind.
 */
export function actorFromSeed(seed: string, description: string): ActorSpec {
  const pick = picker(seed);
  const d = description.toLowerCase();
  const gender: Gender = /\b(man|men|male|guy|dad|father|boy|he|his|husband)\b/.test(d)
    ? 'male'
    : /\b(woman|women|female|girl|mom|mother|she|her|wife|lady)\b/.test(d)
      ? 'female'
      : pick(['female', 'male'] as const);
  const background: Background = /office|work|desk|business/.test(d)
    ? 'office'
    : /outdoor|park|beach|hik|garden|street/.test(d)
      ? 'outdoor'
      : /studio|professional|model/.test(d)
        ? 'studio'
        : pick(BACKGROUNDS);
  return { seed, style: pick(ACTOR_STYLES), gender, background, race: pick(RACES) };
}

function backgroundSvg(bg: Background, pick: ReturnType<typeof picker>): string {
  const W = FRAME_WIDTH;
  const H = FRAME_HEIGHT;
  switch (bg) {
    case 'office':
      return `<rect width="${W}" height="${H}" fill="#dfe6ee"/><rect y="${H * 0.62}" width="${W}" height="${H * 0.38}" fill="#b9c4cf"/>
        <rect x="40" y="120" width="180" height="240" rx="6" fill="#f7f9fb" stroke="#9aa8b5" stroke-width="6"/>
        <rect x="370" y="90" width="150" height="150" rx="75" fill="#f3f3f3" stroke="#8c99a6" stroke-width="6"/>
        <rect x="0" y="${H * 0.6}" width="${W}" height="14" fill="#8a6f55"/>`;
    case 'outdoor':
      return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8ec5ff"/><stop offset="1" stop-color="#dff1ff"/></linearGradient></defs>
        <rect width="${W}" height="${H}" fill="url(#sky)"/><circle cx="470" cy="130" r="60" fill="#ffe28a"/>
        <ellipse cx="120" cy="${H * 0.66}" rx="260" ry="120" fill="#7cc47f"/><ellipse cx="480" cy="${H * 0.7}" rx="280" ry="140" fill="#5fae64"/>
        <rect y="${H * 0.72}" width="${W}" height="${H * 0.28}" fill="#4f9a55"/>`;
    case 'studio':
      return `<defs><radialGradient id="spot" cx="0.5" cy="0.35" r="0.7"><stop offset="0" stop-color="#${pick(['fdfbf7', 'f4f0ff', 'fff4ec'])}"/><stop offset="1" stop-color="#${pick(['c9c2b8', 'b7b0d8', 'd8b9a4'])}"/></radialGradient></defs>
        <rect width="${W}" height="${H}" fill="url(#spot)"/>`;
    default:
      return `<rect width="${W}" height="${H}" fill="#${pick(['f6e7d7', 'e9f0e4', 'f3e6ef', 'e5ecf6'])}"/>
        <rect x="30" y="160" width="200" height="130" rx="10" fill="#${pick(['e2c9a6', 'c7d9b7', 'd9bfd0'])}"/>
        <rect y="${H * 0.7}" width="${W}" height="${H * 0.3}" fill="#${pick(['d8c3a5', 'c9b79c', 'bfae94'])}"/>
        <rect x="380" y="250" width="24" height="300" fill="#6f5b46"/><circle cx="392" cy="230" r="70" fill="#6dab5f"/>`;
  }
}

function headSvg(spec: ActorSpec, mouthOpen: boolean, pick: ReturnType<typeof picker>): string {
  const skin = pick(SKIN[spec.race ?? 'white']);
  const hair = pick(HAIR);
  const common = { seed: spec.seed, backgroundColor: ['transparent'] };
  if (spec.style === 'lorelei') {
    return createAvatar(lorelei, {
      ...common,
      skinColor: [skin],
      hairColor: [hair],
      beardProbability: spec.gender === 'male' ? 40 : 0,
      earringsProbability: spec.gender === 'female' ? 50 : 0,
      mouth: mouthOpen ? ['happy05'] : ['happy01'],
    }).toString();
  }
  return createAvatar(openPeeps, {
    ...common,
    skinColor: [skin],
    headContrastColor: [hair],
    facialHairProbability: spec.gender === 'male' ? 40 : 0,
    maskProbability: 0,
    accessoriesProbability: 0,
    face: mouthOpen ? ['explaining'] : ['smile'],
  }).toString();
}

/**
 * A 576x1024 PNG portrait: scene background, a torso with an arm raised to hold a product, and the DiceBear head
 * (CC0 styles). `mouthOpen` gives the open-mouth variant used for lip-flap.
 */
export async function renderActorPortrait(spec: ActorSpec, opts: { mouthOpen?: boolean } = {}): Promise<Buffer> {
  const pick = picker(spec.seed);
  const bg = backgroundSvg(spec.background, picker(`${spec.seed}/bg`));
  const shirt = pick(SHIRTS);
  const skin = picker(`${spec.seed}/skin`)(SKIN[spec.race ?? 'white']);
  const W = FRAME_WIDTH;
  const H = FRAME_HEIGHT;
  const torso = `
    <path d="M ${W * 0.14} ${H} C ${W * 0.14} ${H * 0.68}, ${W * 0.26} ${H * 0.56}, ${W * 0.5} ${H * 0.555}
      C ${W * 0.74} ${H * 0.56}, ${W * 0.86} ${H * 0.68}, ${W * 0.86} ${H} Z" fill="#${shirt}"/>
    <rect x="${W * 0.44}" y="${H * 0.47}" width="${W * 0.12}" height="${H * 0.1}" rx="20" fill="#${skin}"/>
    <path d="M ${W * 0.78} ${H} L ${W * 0.8} ${H * 0.8} Q ${W * 0.78} ${H * 0.72} ${HAND_ANCHOR.x + 26} ${HAND_ANCHOR.y + 30}"
      stroke="#${shirt}" stroke-width="70" fill="none" stroke-linecap="round"/>
    <ellipse cx="${HAND_ANCHOR.x + 10}" cy="${HAND_ANCHOR.y + 22}" rx="42" ry="36" fill="#${skin}"/>`;
  const base = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${bg}${torso}</svg>`);
  const head = await sharp(Buffer.from(headSvg(spec, opts.mouthOpen ?? false, pick)))
    .resize(HEAD, HEAD)
    .png()
    .toBuffer();
  return sharp(base)
    .composite([{ input: head, left: Math.round((W - HEAD) / 2), top: Math.round(H * 0.07) }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** The 12-actor catalogue of the spec as engine specs (style and seed fixed per id). */
export function catalogueActorSpec(actor: {
  id: string;
  gender: Gender;
  race: Race;
  background: Background;
}): ActorSpec {
  return {
    seed: `catalogue-actor-${actor.id}`,
    style: ACTOR_STYLES[(Number(actor.id) - 1) % ACTOR_STYLES.length]!,
    gender: actor.gender,
    background: actor.background,
    race: actor.race,
  };
}
