import { z } from 'zod';
import { LIMITS } from './constants.ts';

/* The hook-angle library, shared so the web app shows and edits exactly the 12 default lines the server would
 * write when the client sends none, and so a language model's answer is checked against the same angles. */

/**
 * Proven ways to open a short ad, each a different reason to keep watching. A pack uses each angle at most once,
 * so its 12 videos test 12 different openings: 'own' is the user's hook exactly as written, the others rewrite it.
 * The order is the order a pack fills them in.
 */
export const HOOK_ANGLES = [
  'own',
  'pov',
  'problem-agitate',
  'question',
  'listicle',
  'before-after',
  'testimonial',
  'objection',
  'curiosity-gap',
  'pattern-interrupt',
  'bold-claim',
  'how-to',
  'comparison',
  'regret',
] as const;
export const HookAngle = z.enum(HOOK_ANGLES);
export type HookAngle = z.infer<typeof HookAngle>;

/** Short names people see beside each line, and the model is told what each angle means. */
export const HOOK_ANGLE_INFO: Record<HookAngle, { label: string; brief: string }> = {
  own: { label: 'Your hook', brief: "the brand's hook exactly as written" },
  pov: { label: 'POV', brief: 'a "POV:" line that puts the viewer in the moment of using the product' },
  'problem-agitate': { label: 'Problem → agitate', brief: 'names the pain the product solves and twists the knife' },
  question: { label: 'Question', brief: 'opens with a question the viewer wants answered' },
  listicle: { label: 'Listicle', brief: 'a numbered promise ("3 reasons…") that starts with the first item' },
  'before-after': { label: 'Before / after', brief: 'contrasts life before and after the product' },
  testimonial: { label: 'Testimonial', brief: 'a first-person honest review' },
  objection: { label: 'Objection', brief: 'voices the doubt a buyer has, then answers it' },
  'curiosity-gap': { label: 'Curiosity gap', brief: 'hints at something surprising without giving it all away' },
  'pattern-interrupt': { label: 'Pattern interrupt', brief: 'a "stop scrolling" line that breaks the feed' },
  'bold-claim': { label: 'Bold claim', brief: 'a confident, opinionated statement' },
  'how-to': { label: 'How-to', brief: 'promises to show how the person uses it' },
  comparison: { label: 'Comparison', brief: 'sets the product against what the viewer uses now' },
  regret: { label: 'Regret', brief: '"I wish I had known this sooner"' },
};

export interface HookVariantInput {
  hook: string;
  /** The product analysis text (its first clause names the product). */
  productDetails?: string | null;
  /** The detected product category (skincare, beverage, supplement, cosmetics, food, other). */
  category?: string | null;
  language?: string;
}

export interface HookLine {
  angle: HookAngle;
  text: string;
}

/** The lines the pack's hook-lines call answers with: one per video, each with its angle. */
export const HookLinesResponse = z.object({
  lines: z.array(z.string()),
  angles: z.array(HookAngle),
  source: z.enum(['model', 'rules']),
});
export type HookLinesResponse = z.infer<typeof HookLinesResponse>;

interface Hook {
  /** The hook exactly as written (whitespace tidied): the first video says the user's own words. */
  raw: string;
  /** The hook as written, trimmed, without its final punctuation. */
  core: string;
  /** The core with its first letter lowered (unless it starts with 'I' or an acronym), for mid-sentence use. */
  mid: string;
  /** The hook as written with final punctuation (a full sentence). */
  full: string;
  /** A short name of the product from its details, or null. */
  product: string | null;
  /** A noun for the product's category in the pack's language ('skincare', 'drink'…), or null. */
  thing: string | null;
}

type Template = (h: Hook) => string;
type Angles = Record<Exclude<HookAngle, 'own'>, Template>;

// Every form frames the hook (after a colon, or before/after a sentence of its own) rather than weaving it into
// a clause, so it reads right whatever the hook is: a statement, a command or a fragment. Product and category
// come from the product analysis; each form has a wording for when they are unknown.
const EN: Angles = {
  pov: (h) => (h.product ? `POV: you finally tried ${h.product}. ${h.full}` : `POV: ${h.core}`),
  'problem-agitate': (h) =>
    `Tired of ${h.thing ? `trying every ${h.thing} out there` : 'products that overpromise'}? Same. ${h.full}`,
  question: (h) => `Want to know my secret? ${h.full}`,
  listicle: (h) => `3 reasons I switched${h.product ? ` to ${h.product}` : ''}. Number one: ${h.mid}.`,
  'before-after': (h) => `Before${h.product ? ` ${h.product}` : ''}: nothing worked. After: ${h.mid}.`,
  testimonial: (h) => `My honest review${h.product ? ` of ${h.product}` : ', no filter'}: ${h.mid}.`,
  objection: (h) => `I thought it was too good to be true. Then I tried it: ${h.mid}.`,
  'curiosity-gap': (h) => `Nobody talks about this: ${h.mid}.`,
  'pattern-interrupt': (h) => `Stop scrolling if you need to hear this: ${h.mid}.`,
  'bold-claim': (h) => (h.thing ? `Hot take: the best ${h.thing} I've tried. ${h.full}` : `Hot take: ${h.mid}.`),
  'how-to': (h) => (h.product ? `Here's how I use ${h.product}: ${h.mid}.` : `Here's exactly how I do it: ${h.mid}.`),
  comparison: (h) => `${h.product ?? 'This'} vs. everything else I've tried: ${h.mid}.`,
  regret: (h) => `The one thing I wish I knew sooner: ${h.mid}.`,
};

const ES: Angles = {
  pov: (h) => (h.product ? `POV: por fin probaste ${h.product}. ${h.full}` : `POV: ${h.core}`),
  'problem-agitate': (h) => `¿Probaste mil ${h.thing ?? 'productos'} y nada? Yo también. ${h.full}`,
  question: (h) => `¿Quieres saber mi secreto? ${h.full}`,
  listicle: (h) => `3 razones por las que me cambié${h.product ? ` a ${h.product}` : ''}. La primera: ${h.mid}.`,
  'before-after': (h) => `Antes${h.product ? ` de ${h.product}` : ''}: nada funcionaba. Después: ${h.mid}.`,
  testimonial: (h) => `Mi opinión sincera${h.product ? ` sobre ${h.product}` : ', sin filtro'}: ${h.mid}.`,
  objection: (h) => `Pensé que era demasiado bueno para ser verdad. Lo probé: ${h.mid}.`,
  'curiosity-gap': (h) => `Nadie habla de esto: ${h.mid}.`,
  'pattern-interrupt': (h) => `Deja de hacer scroll: ${h.mid}.`,
  'bold-claim': (h) =>
    h.thing ? `Lo digo claro: lo mejor en ${h.thing} que he probado. ${h.full}` : `Lo digo claro: ${h.mid}.`,
  'how-to': (h) => (h.product ? `Así uso ${h.product}: ${h.mid}.` : `Así lo hago yo: ${h.mid}.`),
  comparison: (h) => `${h.product ?? 'Esto'} contra todo lo que he probado: ${h.mid}.`,
  regret: (h) => `Lo que ojalá hubiera sabido antes: ${h.mid}.`,
};

const FR: Angles = {
  pov: (h) => (h.product ? `POV : tu as enfin testé ${h.product}. ${h.full}` : `POV : ${h.core}`),
  'problem-agitate': (h) =>
    `Marre ${h.thing ? `des ${h.thing} qui ne tiennent pas leurs promesses` : 'des produits qui promettent trop'} ? Moi aussi. ${h.full}`,
  question: (h) => `Tu veux connaître mon secret ? ${h.full}`,
  listicle: (h) => `3 raisons pour lesquelles j'ai adopté ${h.product ?? 'ça'}. La première : ${h.mid}.`,
  'before-after': (h) => `Avant${h.product ? ` ${h.product}` : ''} : rien ne marchait. Après : ${h.mid}.`,
  testimonial: (h) => `Mon avis honnête${h.product ? ` sur ${h.product}` : ', sans filtre'} : ${h.mid}.`,
  objection: (h) => `Je pensais que c'était trop beau pour être vrai. J'ai testé : ${h.mid}.`,
  'curiosity-gap': (h) => `Personne ne m'avait dit ça : ${h.mid}.`,
  'pattern-interrupt': (h) => `Arrête de scroller : ${h.mid}.`,
  'bold-claim': (h) => `Je le dis franchement : ${h.mid}.`,
  'how-to': (h) =>
    h.product ? `Voilà comment j'utilise ${h.product} : ${h.mid}.` : `Voilà comment je fais : ${h.mid}.`,
  comparison: (h) => `${h.product ?? 'Ça'} face à tout ce que j'ai essayé : ${h.mid}.`,
  regret: (h) => `Ce que j'aurais aimé savoir plus tôt : ${h.mid}.`,
};

const DE: Angles = {
  pov: (h) => (h.product ? `POV: Du hast endlich ${h.product} probiert. ${h.full}` : `POV: ${h.core}`),
  'problem-agitate': (h) => `Genervt von ${h.thing ?? 'Produkten'}, die nichts halten? Ich auch. ${h.full}`,
  question: (h) => `Willst du mein Geheimnis wissen? ${h.full}`,
  listicle: (h) => `3 Gründe, warum ich ${h.product ? `zu ${h.product} ` : ''}gewechselt bin. Erstens: ${h.mid}.`,
  'before-after': (h) => `Vorher${h.product ? ` ohne ${h.product}` : ''}: nichts hat geholfen. Nachher: ${h.mid}.`,
  testimonial: (h) => `Meine ehrliche Meinung${h.product ? ` zu ${h.product}` : ', ohne Filter'}: ${h.mid}.`,
  objection: (h) => `Ich dachte, das ist zu schön, um wahr zu sein. Dann hab ich's probiert: ${h.mid}.`,
  'curiosity-gap': (h) => `Das hat mir niemand gesagt: ${h.mid}.`,
  'pattern-interrupt': (h) => `Hör auf zu scrollen: ${h.mid}.`,
  'bold-claim': (h) => `Ich sag's, wie es ist: ${h.mid}.`,
  'how-to': (h) => (h.product ? `So benutze ich ${h.product}: ${h.mid}.` : `So mache ich es: ${h.mid}.`),
  comparison: (h) => `${h.product ?? 'Das hier'} gegen alles, was ich probiert habe: ${h.mid}.`,
  regret: (h) => `Das hätte ich gern früher gewusst: ${h.mid}.`,
};

const PT: Angles = {
  pov: (h) => (h.product ? `POV: você finalmente testou ${h.product}. ${h.full}` : `POV: ${h.core}`),
  'problem-agitate': (h) =>
    `Cansou de ${h.thing ? `${h.thing} que não entrega` : 'produtos que prometem demais'}? Eu também. ${h.full}`,
  question: (h) => `Quer saber meu segredo? ${h.full}`,
  listicle: (h) => `3 motivos para eu ter mudado${h.product ? ` para ${h.product}` : ''}. O primeiro: ${h.mid}.`,
  'before-after': (h) => `Antes${h.product ? ` de ${h.product}` : ''}: nada funcionava. Depois: ${h.mid}.`,
  testimonial: (h) => `Minha opinião sincera${h.product ? ` sobre ${h.product}` : ', sem filtro'}: ${h.mid}.`,
  objection: (h) => `Achei que era bom demais para ser verdade. Testei: ${h.mid}.`,
  'curiosity-gap': (h) => `Ninguém fala disso: ${h.mid}.`,
  'pattern-interrupt': (h) => `Pare de rolar: ${h.mid}.`,
  'bold-claim': (h) => `Vou falar sem rodeios: ${h.mid}.`,
  'how-to': (h) => (h.product ? `É assim que eu uso ${h.product}: ${h.mid}.` : `É assim que eu faço: ${h.mid}.`),
  comparison: (h) => `${h.product ?? 'Isto'} contra tudo o que já testei: ${h.mid}.`,
  regret: (h) => `O que eu queria ter sabido antes: ${h.mid}.`,
};

const NL: Angles = {
  pov: (h) => (h.product ? `POV: je hebt eindelijk ${h.product} geprobeerd. ${h.full}` : `POV: ${h.core}`),
  'problem-agitate': (h) => `Klaar met ${h.thing ?? 'producten'} die niets doen? Ik ook. ${h.full}`,
  question: (h) => `Wil je mijn geheim weten? ${h.full}`,
  listicle: (h) => `3 redenen waarom ik ${h.product ? `naar ${h.product} ` : ''}ben overgestapt. Eén: ${h.mid}.`,
  'before-after': (h) => `Voor${h.product ? ` ${h.product}` : ''}: niets werkte. Na: ${h.mid}.`,
  testimonial: (h) => `Mijn eerlijke review${h.product ? ` van ${h.product}` : ', zonder filter'}: ${h.mid}.`,
  objection: (h) => `Ik dacht dat het te mooi was om waar te zijn. Toen probeerde ik het: ${h.mid}.`,
  'curiosity-gap': (h) => `Niemand vertelt je dit: ${h.mid}.`,
  'pattern-interrupt': (h) => `Stop met scrollen: ${h.mid}.`,
  'bold-claim': (h) => `Ik zeg het gewoon: ${h.mid}.`,
  'how-to': (h) => (h.product ? `Zo gebruik ik ${h.product}: ${h.mid}.` : `Zo doe ik het: ${h.mid}.`),
  comparison: (h) => `${h.product ?? 'Dit'} tegen alles wat ik heb geprobeerd: ${h.mid}.`,
  regret: (h) => `Wat ik eerder had willen weten: ${h.mid}.`,
};

const BY_LANGUAGE: Record<string, Angles> = {
  english: EN,
  spanish: ES,
  french: FR,
  german: DE,
  portuguese: PT,
  dutch: NL,
};

/**
 * The category noun per language, in the form its templates need (English singular; Spanish, French, Dutch plural;
 * German dative plural); 'other' (or unknown) says nothing rather than something wrong.
 */
const THINGS: Record<string, Record<string, string>> = {
  english: {
    skincare: 'skincare product',
    beverage: 'drink',
    supplement: 'supplement',
    cosmetics: 'makeup product',
    food: 'snack',
  },
  spanish: {
    skincare: 'cremas',
    beverage: 'bebidas',
    supplement: 'suplementos',
    cosmetics: 'maquillajes',
    food: 'snacks',
  },
  french: {
    skincare: 'soins',
    beverage: 'boissons',
    supplement: 'compléments',
    cosmetics: 'maquillages',
    food: 'snacks',
  },
  german: {
    skincare: 'Pflegeprodukten',
    beverage: 'Getränken',
    supplement: 'Supplements',
    cosmetics: 'Make-up-Produkten',
    food: 'Snacks',
  },
  portuguese: {
    skincare: 'skincare',
    beverage: 'bebida',
    supplement: 'suplemento',
    cosmetics: 'maquiagem',
    food: 'lanche',
  },
  dutch: {
    skincare: 'verzorgingsproducten',
    beverage: 'drankjes',
    supplement: 'supplementen',
    cosmetics: 'make-upproducten',
    food: 'snacks',
  },
};

/**
 * `count` hook lines from the angle library, the user's own hook first, each angle at most once: a pack of 12
 * tests 12 different openings. Deterministic: same input, same lines.
 */
export function writeHookLines(input: HookVariantInput, count: number = LIMITS.videosPerHookPack): HookLine[] {
  const language = input.language && BY_LANGUAGE[input.language] ? input.language : 'english';
  const hook = parseHook(input, language);
  if (!hook.core) return [];
  const angles = BY_LANGUAGE[language] as Angles;
  const out: HookLine[] = [];
  const seen = new Set<string>();
  for (const angle of HOOK_ANGLES) {
    if (out.length >= count) break;
    const text = clip(tidy(angle === 'own' ? hook.raw : angles[angle](hook)));
    if (seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    out.push({ angle, text });
  }
  return out;
}

/** The text of `writeHookLines`, for callers that need only the words. */
export function writeHookVariants(input: HookVariantInput, count: number = LIMITS.videosPerHookPack): string[] {
  return writeHookLines(input, count).map((l) => l.text);
}

/**
 * Completes a model's lines with the library's: the user's hook first, then the model's angles in the order given,
 * then the library's lines for the angles the model did not use, `count` in all, no angle and no text twice.
 */
export function mergeHookLines(own: HookLine[], fromModel: HookLine[], count: number): HookLine[] {
  const out: HookLine[] = [];
  const angles = new Set<HookAngle>();
  const texts = new Set<string>();
  const add = (l: HookLine) => {
    const key = l.text.trim().toLowerCase();
    if (out.length >= count || angles.has(l.angle) || texts.has(key)) return;
    angles.add(l.angle);
    texts.add(key);
    out.push(l);
  };
  const first = own.find((l) => l.angle === 'own');
  if (first) add(first);
  fromModel.forEach(add);
  own.forEach(add);
  return out;
}

function parseHook(input: HookVariantInput, language: string): Hook {
  const full0 = input.hook.replace(/\s+/g, ' ').trim();
  const core = full0.replace(/[\s.!?…。]+$/u, '').trim();
  const full = /[.!?…]$/u.test(full0) ? full0 : `${core}.`;
  return {
    raw: full0,
    core,
    mid: lowerFirst(core, language),
    full,
    product: productName(input.productDetails ?? null),
    thing: (input.category && THINGS[language]?.[input.category]) || null,
  };
}

/**
 * Lowers the first letter for use mid-sentence, except 'I …', 'I'm …', acronyms such as 'SPF', and German, whose
 * nouns keep their capital.
 */
function lowerFirst(s: string, language: string): string {
  if (language === 'german') return s;
  const first = s.split(/\s+/)[0] ?? '';
  if (/^I('|’|$)/.test(first)) return s;
  if (first.length > 1 && first === first.toUpperCase() && /[A-Z]/.test(first)) return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** The product's name: the first clause of its details, at most 6 words, or null. */
function productName(details: string | null): string | null {
  if (!details) return null;
  const clause = details.split(/[.,;:!?\n–—-]/)[0]?.trim() ?? '';
  const words = clause.split(/\s+/).filter(Boolean).slice(0, 6);
  if (words.length === 0) return null;
  return words.join(' ');
}

function tidy(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .replace(/([.!?])\.$/u, '$1')
    .replace(/\?\.$/u, '?')
    .replace(/([.!?])\?$/u, '?')
    .trim();
}

function clip(s: string): string {
  if (s.length <= LIMITS.hookTextMax) return s;
  return `${s.slice(0, LIMITS.hookTextMax - 1).trimEnd()}…`;
}
