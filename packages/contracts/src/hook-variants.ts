import { LIMITS } from './constants.ts';

/* The rule-based hook-variant writer, shared so the web app shows and edits exactly the 12 default lines the
 * server would write when the client sends none. */

/**
 * A small, deterministic, local hook-variant writer: from the user's hook (and the product details) it writes
 * rule-based rewrites — 'POV:', 'Stop scrolling if…', confession, question-lead and product forms — so a pack of 12
 * videos tests 12 different openings without calling any model. Same input, same output, always.
 */

export interface HookVariantInput {
  hook: string;
  productDetails?: string | null;
  language?: string;
}

type Template = (h: Hook) => string;

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
}

// Every form frames the hook (after a colon, or before/after a sentence of its own) rather than weaving it into
// a clause, so it reads right whatever the hook is: a statement, a command or a fragment.
const EN: Template[] = [
  (h) => h.raw,
  (h) => `POV: ${h.core}`,
  (h) => `Stop scrolling if you need to hear this: ${h.mid}.`,
  (h) => `Nobody talks about this: ${h.mid}.`,
  (h) => `Real talk: ${h.mid}.`,
  (h) => (h.product ? `${h.full} That's ${h.product}.` : `${h.full} And it only takes a minute.`),
  (h) => `Wait for it… ${h.mid}.`,
  (h) => `Here's the thing: ${h.mid}.`,
  (h) => `Can I be honest? ${h.full}`,
  (h) =>
    h.product ? `I tried ${h.product} so you don't have to: ${h.mid}.` : `I tried it so you don't have to: ${h.mid}.`,
  (h) => `The one thing I wish I knew sooner: ${h.mid}.`,
  (h) => `Watch this before you buy anything else: ${h.mid}.`,
];

const ES: Template[] = [
  (h) => h.raw,
  (h) => `¿Te cuento algo? ${h.full}`,
  (h) => `POV: ${h.core}`,
  (h) => `Deja de hacer scroll: ${h.mid}.`,
  (h) => `Te lo digo en serio: ${h.mid}.`,
  (h) => (h.product ? `${h.full} Así es ${h.product}.` : `${h.full} Y solo toma un minuto.`),
  (h) => `Nadie habla de esto: ${h.mid}.`,
  (h) => `¿Lo sabías? ${h.full}`,
];

const FR: Template[] = [
  (h) => h.raw,
  (h) => `Je peux être honnête ? ${h.full}`,
  (h) => `POV : ${h.core}`,
  (h) => `Arrête de scroller : ${h.mid}.`,
  (h) => `Sérieusement : ${h.mid}.`,
  (h) => (h.product ? `${h.full} C'est ça, ${h.product}.` : `${h.full} Et ça prend une minute.`),
  (h) => `Personne ne m'avait dit ça : ${h.mid}.`,
  (h) => `Tu savais ? ${h.full}`,
];

const DE: Template[] = [
  (h) => h.raw,
  (h) => `Darf ich ehrlich sein? ${h.full}`,
  (h) => `POV: ${h.core}`,
  (h) => `Hör auf zu scrollen: ${h.mid}.`,
  (h) => `Ganz ehrlich: ${h.mid}.`,
  (h) => (h.product ? `${h.full} Das ist ${h.product}.` : `${h.full} Und es dauert nur eine Minute.`),
  (h) => `Das hat mir niemand gesagt: ${h.mid}.`,
  (h) => `Wusstest du das? ${h.full}`,
];

const PT: Template[] = [
  (h) => h.raw,
  (h) => `Quer saber? ${h.full}`,
  (h) => `POV: ${h.core}`,
  (h) => `Pare de rolar: ${h.mid}.`,
  (h) => `Sério: ${h.mid}.`,
  (h) => (h.product ? `${h.full} Esse é o ${h.product}.` : `${h.full} E leva só um minuto.`),
  (h) => `Ninguém fala disso: ${h.mid}.`,
  (h) => `Você sabia? ${h.full}`,
];

const NL: Template[] = [
  (h) => h.raw,
  (h) => `Mag ik eerlijk zijn? ${h.full}`,
  (h) => `POV: ${h.core}`,
  (h) => `Stop met scrollen: ${h.mid}.`,
  (h) => `Echt waar: ${h.mid}.`,
  (h) => (h.product ? `${h.full} Dat is ${h.product}.` : `${h.full} En het kost maar een minuut.`),
  (h) => `Niemand vertelt je dit: ${h.mid}.`,
  (h) => `Wist je dat? ${h.full}`,
];

const BY_LANGUAGE: Record<string, Template[]> = {
  english: EN,
  spanish: ES,
  french: FR,
  german: DE,
  portuguese: PT,
  dutch: NL,
};

/** `count` hook lines, the user's own hook first, each distinct while the language's forms last. */
export function writeHookVariants(input: HookVariantInput, count: number = LIMITS.videosPerHookPack): string[] {
  const hook = parseHook(input.hook, input.productDetails ?? null);
  if (!hook.core) return [];
  const templates = BY_LANGUAGE[input.language ?? 'english'] ?? EN;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of templates) {
    if (out.length >= count) break;
    const line = clip(tidy(t(hook)));
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  }
  // Fewer forms than videos: repeat in order (each repeat goes to a different character).
  const distinct = out.length;
  for (let i = 0; out.length < count; i++) out.push(out[i % distinct] as string);
  return out;
}

function parseHook(raw: string, productDetails: string | null): Hook {
  const full0 = raw.replace(/\s+/g, ' ').trim();
  const core = full0.replace(/[\s.!?…。]+$/u, '').trim();
  const full = /[.!?…]$/u.test(full0) ? full0 : `${core}.`;
  return { raw: full0, core, mid: lowerFirst(core), full, product: productName(productDetails) };
}

/** Lowers the first letter for use mid-sentence, except 'I …', 'I'm …' and acronyms such as 'SPF'. */
function lowerFirst(s: string): string {
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
