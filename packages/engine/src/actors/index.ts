import sharp from 'sharp';
import { FRAME_HEIGHT, FRAME_WIDTH, type Gender } from '../types.ts';
import { REST_POSE, coloursOf, figureSvg, type RigPose } from './rig.ts';
import {
  describeTraits,
  mergeStated,
  picker,
  statedTraits,
  traitMatchScore,
  traitsFor,
  type ActorTraits,
  type SkinTone,
  type StatedTraitsOf,
} from './traits.ts';

/** One drawing style: the parametric rig (actors/rig.ts), our own artwork. */
export const ACTOR_STYLES = ['illustrated'] as const;
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
  /** What is drawn: read from the description, the rest from the seed. */
  traits: ActorTraits;
}

/**
 * Where a held product sits by default in the portrait (frame coordinates): in front of the chest, on the
 * viewer's right, where the rig's right hand reaches without stretching.
 */
export const HAND_ANCHOR = { x: 372, y: 716 } as const;

/** Skin tone drawn for each catalogue race (the catalogue's captions name the race). */
const RACE_SKIN: Record<Race, readonly SkinTone[]> = {
  white: ['light', 'fair'],
  black: ['deep', 'brown'],
  asian: ['fair', 'light'],
  hispanic: ['tan', 'medium'],
  middle_eastern: ['olive', 'medium'],
};

/** Deterministic actor spec from a free-text description and an index (the n-th person of that description). */
export function actorFromDescription(description: string, index: number): ActorSpec {
  return actorFromSeed(`${description.trim().toLowerCase()}#${index}`, description);
}

/**
 * The person for a seed: every trait the description names (gender, age, hair, glasses, beard, skin, clothing,
 * scene) is drawn as named; the rest comes from the seed, so a new seed ("regenerate the person") gives a new
 * person of that kind. `stated` is a language model's reading of the description, used where the rules found nothing.
 */
export function actorFromSeed(
  seed: string,
  description: string,
  stated: Partial<ReturnType<typeof statedTraits>> = {},
): ActorSpec {
  const pick = picker(seed);
  const d = description.toLowerCase();
  // What the words say for sure wins; a language model's reading (`stated`) fills what the rules left open.
  const rules = statedTraits(description);
  const merged = { ...rules };
  for (const [k, v] of Object.entries(stated) as Array<[keyof typeof rules, unknown]>) {
    if (v !== null && v !== undefined && rules[k] === null) (merged as Record<string, unknown>)[k] = v;
  }
  const traits = traitsFor(seed, description, merged);
  const background: Background = /office|work|desk|business/.test(d)
    ? 'office'
    : /outdoor|park|beach|hik|garden|street/.test(d)
      ? 'outdoor'
      : /studio|professional|model/.test(d)
        ? 'studio'
        : pick(BACKGROUNDS);
  return { seed, style: 'illustrated', gender: traits.gender, background, traits };
}

export function backgroundSvg(bg: Background, pick: ReturnType<typeof picker>): string {
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

/**
 * A 576x1024 PNG portrait: scene background and the rig figure at rest (or in `pose`). `mouthOpen` gives the
 * open-mouth variant.
 */
export async function renderActorPortrait(
  spec: ActorSpec,
  opts: { mouthOpen?: boolean; pose?: RigPose } = {},
): Promise<Buffer> {
  const pose = opts.pose ?? (opts.mouthOpen ? { ...REST_POSE, viseme: 'open' as const } : REST_POSE);
  const base = Buffer.from(sceneSvg(spec.background, spec.seed, FRAME_WIDTH, FRAME_HEIGHT));
  const figure = Buffer.from(figureSvg(spec.traits, coloursOfSpec(spec), pose, null));
  return sharp(base)
    .composite([{ input: figure }])
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** The rig's colours for a spec (eye colour from the seed). */
export const coloursOfSpec = (spec: ActorSpec) => coloursOf(spec.traits, picker(`${spec.seed}/eyes`)([0, 1, 2, 3]));

/** The scene behind the actor as an SVG of the given pixel size (drawn in frame coordinates). */
export function sceneSvg(bg: Background, seed: string, width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${FRAME_WIDTH} ${FRAME_HEIGHT}">${sceneSvgBody(bg, seed)}</svg>`;
}

/** The scene's elements without the enclosing `<svg>`, in frame coordinates (to draw a figure over it). */
export const sceneSvgBody = (bg: Background, seed: string): string => backgroundSvg(bg, picker(`${seed}/bg`));

/** The 12-actor catalogue as engine specs: the drawing matches the catalogue's gender and race. */
export function catalogueActorSpec(actor: {
  id: string;
  gender: Gender;
  race: Race;
  background: Background;
}): ActorSpec {
  const seed = `catalogue-actor-${actor.id}`;
  const skin = picker(`${seed}/skin`)(RACE_SKIN[actor.race]);
  // Catalogue actors are adults in their 20s to 40s; hair follows gender and skin (see traitsFor).
  const age = (['20s', '30s', '20s', '40s'] as const)[(Number(actor.id) - 1) % 4]!;
  const traits = traitsFor(seed, '', { gender: actor.gender, skin, age });
  return { seed, style: 'illustrated', gender: actor.gender, background: actor.background, race: actor.race, traits };
}

/**
 * A catalogue actor in words, for the images provider to make the same person photoreal (Realistic videos): the
 * race and the traits the drawing shows (age, hair, beard, glasses) and the garment, all lower case so the
 * invented-person check never reads it as a name, e.g. "black woman in her 20s, black afro hair, wearing a hoodie".
 */
export function catalogueActorDescription(actor: {
  id: string;
  gender: Gender;
  race: Race;
  background: Background;
}): string {
  const { traits } = catalogueActorSpec(actor);
  const garment = traits.garment === 'tee' ? 't-shirt' : traits.garment;
  return `${actor.race.replace('_', ' ')} ${describeTraits(traits)}, wearing a ${garment}`;
}

/**
 * Catalogue actors best first for a description: each actor's drawn traits (catalogueActorSpec) scored against
 * what the description states (traitMatchScore); ties keep catalogue order. `read` is a language model's reading
 * of the description, filling what the rules found nothing for.
 */
export function rankCatalogueActors<A extends { id: string; gender: Gender; race: Race; background: Background }>(
  actors: readonly A[],
  description: string,
  read: StatedTraitsOf = {},
): Array<{ actor: A; score: number }> {
  const stated = mergeStated(description, read);
  return actors
    .map((actor, i) => ({ actor, i, score: traitMatchScore(stated, catalogueActorSpec(actor).traits) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ actor, score }) => ({ actor, score }));
}
