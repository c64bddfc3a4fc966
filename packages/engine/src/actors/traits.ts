import { createHash } from 'node:crypto';
import type { Gender } from '../types.ts';

/**
 * What a character looks like, read from its free-text description. Everything the description names wins;
 * what it leaves open comes from the seed, so "regenerate the person" gives another person of the same kind.
 */
export const AGE_BANDS = ['20s', '30s', '40s', '50s', '60s+'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];
/** Light to deep, in the order of SKIN_TONES' colours. */
export const SKIN_TONES = ['light', 'fair', 'medium', 'olive', 'tan', 'brown', 'deep'] as const;
export type SkinTone = (typeof SKIN_TONES)[number];
export const HAIR_COLOURS = ['black', 'dark-brown', 'brown', 'auburn', 'red', 'blonde', 'grey', 'white'] as const;
export type HairColour = (typeof HAIR_COLOURS)[number];
export const HAIR_STYLES = [
  'short',
  'buzz',
  'bald',
  'side-part',
  'bob',
  'long',
  'bun',
  'ponytail',
  'curly',
  'afro',
] as const;
export type HairStyle = (typeof HAIR_STYLES)[number];
export const BEARDS = ['none', 'stubble', 'moustache', 'full'] as const;
export type Beard = (typeof BEARDS)[number];
export const GARMENTS = ['tee', 'sweater', 'blazer', 'hoodie'] as const;
export type Garment = (typeof GARMENTS)[number];

export interface ActorTraits {
  gender: Gender;
  age: AgeBand;
  skin: SkinTone;
  hairColour: HairColour;
  hairStyle: HairStyle;
  glasses: boolean;
  beard: Beard;
  garment: Garment;
  /** Clothing colour, '#rrggbb'. */
  clothing: string;
}

/** Named clothing colours a description may use, and the shade we draw. */
export const CLOTHING_COLOURS: Record<string, string> = {
  red: '#d64541',
  blue: '#2f6fde',
  navy: '#27375c',
  green: '#2e8b57',
  teal: '#17a398',
  yellow: '#f2c14e',
  orange: '#ee7b30',
  pink: '#e77fa6',
  purple: '#7b5ea7',
  black: '#2b2b2e',
  white: '#f4f4f2',
  grey: '#8a9099',
  gray: '#8a9099',
  beige: '#d9c5a3',
  brown: '#8b5a3c',
  burgundy: '#7d2233',
  mustard: '#d4a12a',
  olive: '#6b7a3a',
  lavender: '#b9a6e0',
  coral: '#f27a6a',
  denim: '#4a6fa5',
};
/** Clothing colours picked when the description names none: saturated enough to read on every background. */
const DEFAULT_CLOTHING = ['#2f6fde', '#e4572e', '#17a398', '#7b5ea7', '#f2a541', '#33415c', '#d94f70', '#4f772d'];

/** A stable pseudo-random picker from a seed. */
export function picker(seed: string) {
  const h = createHash('sha256').update(seed).digest();
  let i = 0;
  return <T>(list: readonly T[]): T => list[h[i++ % h.length]! % list.length]!;
}

const words = (d: string) => ` ${d.toLowerCase().replace(/[^a-z0-9'+-]+/g, ' ')} `;
const has = (d: string, re: RegExp) => re.test(d);
/** Index of the first match of a word list in the text, or Infinity. */
const firstAt = (d: string, re: RegExp) => {
  const m = re.exec(d);
  return m ? m.index : Infinity;
};

const MALE =
  /\s(man|men|male|guy|guys|dude|dad|daddy|father|boy|he|his|him|husband|boyfriend|gentleman|grandfather|grandpa|granddad|grandad|uncle|brother|son|sir|mr|king|businessman|fisherman|bearded|bloke|lad)\s/;
const FEMALE =
  /\s(woman|women|female|girl|gal|lady|ladies|mom|mum|mommy|mother|she|her|hers|wife|girlfriend|grandmother|grandma|granny|nana|aunt|auntie|sister|daughter|mrs|ms|miss|queen|businesswoman|latina|mama|bride|actress|waitress)\s/;

/** The description's gender words; the one named first wins ("a woman and her husband" is a woman). */
export function genderOf(description: string): Gender | null {
  const d = words(description);
  const m = firstAt(d, MALE);
  const f = firstAt(d, FEMALE);
  if (m === Infinity && f === Infinity) return null;
  return f < m ? 'female' : 'male';
}

function ageOf(d: string): AgeBand | null {
  // Explicit ages first: "in her 20s", "twenties", "a 45-year-old", "aged 62".
  const decade = /\s(?:mid-|late-|early-)?(\d0)'?s\+?\s/.exec(d);
  if (decade) return bandOfAge(Number(decade[1]));
  const named: Array<[RegExp, AgeBand]> = [
    [/\s(twenties|twenty)/, '20s'],
    [/\s(thirties|thirty)/, '30s'],
    [/\s(forties|forty)/, '40s'],
    [/\s(fifties|fifty)/, '50s'],
    [/\s(sixties|seventies|eighties|sixty|seventy|eighty)/, '60s+'],
  ];
  for (const [re, band] of named) if (re.test(d)) return band;
  const years = /\s(\d{2})[ -]?(?:year|yr|yo\s)/.exec(d) ?? /\saged?\s(\d{2})\s/.exec(d);
  if (years) return bandOfAge(Number(years[1]));
  if (
    has(
      d,
      /\s(elderly|old|older|senior|seniors|aged|grandmother|grandma|granny|grandfather|grandpa|granddad|grandad|nana|retired|retiree|pensioner|oap)\s/,
    )
  )
    return '60s+';
  if (has(d, /\s(middle-aged|middle aged|mature)\s/)) return '50s';
  if (has(d, /\s(mom|mum|dad|mother|father|parent|professional|manager|executive|businesswoman|businessman)\s/))
    return '30s';
  if (has(d, /\s(young|youthful|teen|teenager|student|college|gen-z|genz|gen z|girl|boy|guy|gal)\s/)) return '20s';
  return null;
}

function bandOfAge(n: number): AgeBand {
  if (n < 30) return '20s';
  if (n < 40) return '30s';
  if (n < 50) return '40s';
  if (n < 60) return '50s';
  return '60s+';
}

/** "<colour> hair", "<colour>-haired", "<colour> head". */
const hairOfColour = (c: string) =>
  new RegExp(`\\s(?:${c})[- ](?:hair|haired|head|bob|bun|ponytail|curls|afro|braids|pixie|locks)\\s`);

function hairColourOf(d: string): HairColour | null {
  if (has(d, hairOfColour('grey|gray|silver')) || has(d, /\s(greying|graying|salt-and-pepper)\s/)) return 'grey';
  if (has(d, hairOfColour('white'))) return 'white';
  if (has(d, /\s(blonde|blond|platinum)\s/) || has(d, hairOfColour('fair|golden'))) return 'blonde';
  if (has(d, /\s(redhead|ginger)\s/) || has(d, hairOfColour('red'))) return 'red';
  if (has(d, /\sauburn\s/)) return 'auburn';
  if (has(d, /\sbrunette\s/) || has(d, hairOfColour('brown|chestnut'))) return 'brown';
  if (has(d, hairOfColour('black|dark|jet-black|raven'))) return 'black';
  return null;
}

function hairStyleOf(d: string): HairStyle | null {
  const table: Array<[RegExp, HairStyle]> = [
    [/\s(bald|shaved head|shaven head)\s/, 'bald'],
    [/\s(buzz|buzzcut|buzz-cut|crew cut|crew-cut)\s/, 'buzz'],
    [/\s(afro)\s/, 'afro'],
    [/\s(curly|curls|coily)\s/, 'curly'],
    [/\s(ponytail|pony tail)\s/, 'ponytail'],
    [/\s(bun|updo|top knot|topknot)\s/, 'bun'],
    [/\s(bob|pixie)\s/, 'bob'],
    // Up to two more words before "hair": "long brown hair", "long, wavy brown hair".
    [/\s(long-haired|long haired|flowing hair|long(?:,? [a-z-]+){0,2} hair)/, 'long'],
    [/\s(short-haired|short haired|short(?:,? [a-z-]+){0,2} hair)/, 'short'],
  ];
  for (const [re, style] of table) if (re.test(d)) return style;
  return null;
}

/** Nouns for a person: "black" and "white" are skin only when they describe one (not "black hair", "white shirt"). */
const PERSON =
  'woman|man|lady|guy|girl|boy|male|female|actor|actress|person|mom|dad|mother|father|grandmother|grandfather|grandma|grandpa|senior|teen|teenager|student|professional|wife|husband|nurse|doctor|athlete|people';

function skinOf(d: string): SkinTone | null {
  const table: Array<[RegExp, SkinTone]> = [
    [/\s(pale|fair-skinned|fair skinned|light-skinned|light skinned|scandinavian|nordic|irish)\s/, 'light'],
    [/\s(dark-skinned|dark skinned|deep skin)\s/, 'deep'],
    [/\s(african|african-american|nigerian|kenyan|ghanaian)\s/, 'deep'],
    [new RegExp(`\\sblack\\s(?:[a-z0-9-]+\\s){0,3}?(?:${PERSON})\\s`), 'deep'],
    [/\s(indian|south asian|pakistani|bangladeshi|sri lankan|brown-skinned|brown skinned)\s/, 'brown'],
    [/\s(hispanic|latina|latino|latinx|mexican|brazilian|colombian|puerto rican|tan|tanned)\s/, 'tan'],
    [
      /\s(middle eastern|middle-eastern|arab|arabic|persian|iranian|turkish|lebanese|mediterranean|olive-skinned)\s/,
      'olive',
    ],
    [/\s(asian|east asian|chinese|japanese|korean|vietnamese|filipino|filipina|thai)\s/, 'fair'],
    [/\s(caucasian|european)\s/, 'light'],
    [new RegExp(`\\swhite\\s(?:[a-z0-9-]+\\s){0,3}?(?:${PERSON})\\s`), 'light'],
  ];
  for (const [re, tone] of table) if (re.test(d)) return tone;
  return null;
}

function glassesOf(d: string): boolean | null {
  if (has(d, /\s(no glasses|without glasses)\s/)) return false;
  if (has(d, /\s(glasses|spectacles|specs|eyeglasses|bespectacled|sunglasses)\s/)) return true;
  return null;
}

function beardOf(d: string): Beard | null {
  if (has(d, /\s(clean-shaven|clean shaven|no beard)\s/)) return 'none';
  if (has(d, /\s(moustache|mustache|mustached|moustached)\s/)) return 'moustache';
  if (has(d, /\s(stubble|scruffy|five o'clock shadow)\s/)) return 'stubble';
  if (has(d, /\s(beard|bearded|goatee)\s/)) return 'full';
  return null;
}

const GARMENT_WORDS =
  'shirt|t-shirt|tshirt|tee|top|blouse|sweater|jumper|cardigan|hoodie|sweatshirt|jacket|blazer|suit|coat|dress|scrubs|uniform|polo|outfit|vest';

function garmentOf(d: string): Garment | null {
  if (has(d, /\s(hoodie|sweatshirt)\s/)) return 'hoodie';
  if (has(d, /\s(blazer|suit|jacket|coat)\s/)) return 'blazer';
  if (has(d, /\s(sweater|jumper|cardigan)\s/)) return 'sweater';
  if (has(d, /\s(shirt|t-shirt|tshirt|tee|top|polo|blouse)\s/)) return 'tee';
  return null;
}

function clothingOf(d: string): string | null {
  const names = Object.keys(CLOTHING_COLOURS).join('|');
  const m =
    new RegExp(`\\s(${names})\\s(?:[a-z-]+\\s)?(?:${GARMENT_WORDS})\\s`).exec(d) ??
    new RegExp(`\\s(?:wearing|dressed in|in)\\s(?:a\\s|an\\s)?(?:bright\\s|dark\\s|light\\s)?(${names})\\s`).exec(d) ??
    new RegExp(`\\s(?:${GARMENT_WORDS})\\s(?:in\\s)?(${names})\\s`).exec(d);
  return m ? CLOTHING_COLOURS[m[1]!]! : null;
}

/** Only the traits a description states; null where it says nothing. */
export function statedTraits(description: string): { [K in keyof ActorTraits]: ActorTraits[K] | null } {
  const d = words(description);
  return {
    gender: genderOf(description),
    age: ageOf(d),
    skin: skinOf(d),
    hairColour: hairColourOf(d),
    hairStyle: hairStyleOf(d),
    glasses: glassesOf(d),
    beard: beardOf(d),
    garment: garmentOf(d),
    clothing: clothingOf(d),
  };
}

const MALE_STYLES: readonly HairStyle[] = ['short', 'short', 'side-part', 'buzz', 'curly', 'short'];
const FEMALE_STYLES: readonly HairStyle[] = ['long', 'long', 'bob', 'bun', 'ponytail', 'curly'];

/**
 * Complete traits: stated ones from the description (or `stated`, e.g. a language model's reading), the rest
 * from the seed, kept plausible together — grey hair comes with age, beards only on men, a style that suits
 * the gender, afro only with textured hair.
 */
export function traitsFor(
  seed: string,
  description: string,
  stated: Partial<{ [K in keyof ActorTraits]: ActorTraits[K] | null }> = statedTraits(description),
): ActorTraits {
  const pick = picker(`${seed}/traits`);
  const gender: Gender = stated.gender ?? pick(['female', 'male'] as const);
  const age: AgeBand = stated.age ?? pick(['20s', '20s', '30s', '30s', '40s'] as const);
  const skin: SkinTone = stated.skin ?? pick(SKIN_TONES);
  const darkHair = skin === 'deep' || skin === 'brown' || skin === 'tan' || skin === 'olive' || skin === 'fair';
  let hairColour: HairColour =
    stated.hairColour ??
    (age === '60s+'
      ? pick(['grey', 'white', 'grey'] as const)
      : age === '50s'
        ? pick(['grey', 'dark-brown', 'grey'] as const)
        : darkHair
          ? pick(['black', 'dark-brown', 'black', 'dark-brown', 'brown'] as const)
          : pick(['dark-brown', 'brown', 'blonde', 'auburn', 'black', 'red', 'brown', 'blonde'] as const));
  if (hairColour === 'white' && age !== '60s+' && !stated.hairColour) hairColour = 'grey';
  let hairStyle: HairStyle =
    stated.hairStyle ??
    (gender === 'male'
      ? pick(age === '60s+' || age === '50s' ? (['short', 'side-part', 'bald', 'short'] as const) : MALE_STYLES)
      : pick(age === '60s+' ? (['bob', 'bun', 'curly', 'bob'] as const) : FEMALE_STYLES));
  if (!stated.hairStyle && (skin === 'deep' || skin === 'brown') && pick([0, 1, 2, 3]) === 0) hairStyle = 'afro';
  const beard: Beard =
    gender === 'female'
      ? 'none'
      : (stated.beard ?? pick(['none', 'none', 'stubble', 'full', 'none', 'moustache'] as const));
  const glasses =
    stated.glasses ?? (age === '60s+' || age === '50s' ? pick([true, false]) : pick([false, false, false, true]));
  const garment: Garment = stated.garment ?? pick(['tee', 'tee', 'sweater', 'blazer', 'hoodie'] as const);
  const clothing = stated.clothing ?? pick(DEFAULT_CLOTHING);
  return { gender, age, skin, hairColour, hairStyle, glasses, beard, garment, clothing };
}

/** A short human caption of what is drawn, e.g. "woman in her 60s, grey bob, glasses". */
export function describeTraits(t: ActorTraits): string {
  const who = t.gender === 'female' ? 'woman' : 'man';
  const age = t.age === '60s+' ? 'in her 60s+' : `in her ${t.age}`;
  const parts = [`${who} ${t.gender === 'female' ? age : age.replace('her', 'his')}`];
  parts.push(
    t.hairStyle === 'bald' ? 'bald' : `${t.hairColour.replace('-', ' ')} ${t.hairStyle.replace('-', ' ')} hair`,
  );
  if (t.beard !== 'none') parts.push(t.beard === 'full' ? 'beard' : t.beard);
  if (t.glasses) parts.push('glasses');
  return parts.join(', ');
}

/** How much each stated trait weighs when matching people to a description: who they are before what they wear. */
const MATCH_WEIGHTS: Record<keyof ActorTraits, number> = {
  gender: 8,
  age: 3,
  skin: 3,
  hairStyle: 2,
  hairColour: 2,
  beard: 2,
  glasses: 1,
  garment: 1,
  clothing: 0.5,
};

/** Neighbouring tones and hair shades are nearly right ("brown" hair vs "dark brown"): half a match. */
const nearIn = (list: readonly string[], a: string, b: string): boolean =>
  list.includes(a) && list.includes(b) && Math.abs(list.indexOf(a) - list.indexOf(b)) === 1;

/**
 * How well a person's traits fit what a description states: each stated trait adds its weight when it matches,
 * half when it is a neighbour (skin tone, hair shade, age band), and takes its weight off when it contradicts.
 * Traits the description leaves open count nothing, so an empty description scores every person 0.
 */
export function traitMatchScore(stated: StatedTraitsOf, traits: ActorTraits): number {
  let score = 0;
  for (const key of Object.keys(MATCH_WEIGHTS) as Array<keyof ActorTraits>) {
    const want = stated[key];
    if (want === null || want === undefined) continue;
    const have = traits[key];
    const w = MATCH_WEIGHTS[key];
    if (want === have) score += w;
    else if (
      (key === 'skin' && nearIn(SKIN_TONES, String(want), String(have))) ||
      (key === 'hairColour' && nearIn(['black', 'dark-brown', 'brown'], String(want), String(have))) ||
      (key === 'age' && nearIn(AGE_BANDS, String(want), String(have)))
    )
      score += w / 2;
    else score -= w;
  }
  return score;
}

export type StatedTraitsOf = Partial<{ [K in keyof ActorTraits]: ActorTraits[K] | null }>;

/** The rules' reading of a description, with a language model's reading (`read`) filling what the rules left open. */
export function mergeStated(description: string, read: StatedTraitsOf = {}): StatedTraitsOf {
  const merged: StatedTraitsOf = { ...statedTraits(description) };
  for (const [k, v] of Object.entries(read) as Array<[keyof ActorTraits, unknown]>) {
    if (v !== null && v !== undefined && (merged[k] === null || merged[k] === undefined))
      (merged as Record<string, unknown>)[k] = v;
  }
  return merged;
}
