/**
 * Content rules for generated people: we make invented actors, never a named real person. The prompt framing says
 * so to the model, and a description that plainly asks for a real or famous person is refused before any call.
 * A heuristic, not a classifier: it catches the common ways of asking ("looks like Taylor Swift", "a celebrity",
 * "Elon Musk holding…") and lets ordinary descriptions through.
 */
export class ContentRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContentRuleError';
  }
}

export const NAMED_PERSON_MESSAGE =
  'Describe an invented person: actors cannot be made to look like a real or famous person.';

const ASKS_FOR_LIKENESS =
  /\b(look(s|ing)?[- ]?alike|doppelg(a|ä)nger|celebrity|celeb|famous|impersonat\w*|deepfake|(looks?|looking|resembl\w*|dressed|styled) (just |exactly )?(like|as) [A-Z][\p{L}'-]+)\b/u;

/** Two or more capitalised words in a row that are not ordinary descriptive words: "Taylor Swift", "Elon Musk". */
const COMMON_CAPITALISED = new Set(
  [
    'a',
    'an',
    'the',
    'young',
    'old',
    'middle',
    'aged',
    'asian',
    'african',
    'american',
    'european',
    'latina',
    'latino',
    'hispanic',
    'indian',
    'british',
    'australian',
    'black',
    'white',
    'man',
    'woman',
    'girl',
    'boy',
    'female',
    'male',
    'person',
    'mom',
    'dad',
    'mother',
    'father',
    'student',
    'nurse',
    'doctor',
    'chef',
    'mid',
    'east',
    'eastern',
    'western',
    'south',
    'north',
    'korean',
    'japanese',
    'chinese',
    'arab',
    'nordic',
    'scandinavian',
    'caucasian',
    'italian',
    'french',
    'german',
    'spanish',
    'dutch',
    'portuguese',
    'brazilian',
    'mexican',
    'irish',
    'fitness',
    'gym',
    'office',
    'kitchen',
    'ugc',
    'creator',
    'influencer',
    'gen',
    'z',
    'millennial',
    'in',
    'with',
    'and',
    'of',
    'her',
    'his',
    'their',
    'smiling',
    'friendly',
    'casual',
    'blonde',
    'brunette',
    'red',
    'dark',
    'light',
    'long',
    'short',
    'curly',
    'hair',
    'tshirt',
    't-shirt',
    'hoodie',
    'sweater',
    'suit',
  ].map((w) => w.toLowerCase()),
);

/** Throws ContentRuleError when a character description asks for a named real person or a lookalike. */
export function assertInventedPerson(description: string): void {
  if (ASKS_FOR_LIKENESS.test(description)) throw new ContentRuleError(NAMED_PERSON_MESSAGE);
  // Names: a run of 2+ capitalised words that are not in the descriptive list, not at the start of a sentence only.
  const runs = description.match(/\b[A-Z][\p{Ll}'-]+(?:\s+[A-Z][\p{Ll}'-]+)+\b/gu) ?? [];
  for (const run of runs) {
    const words = run.split(/\s+/);
    const unknown = words.filter((w) => !COMMON_CAPITALISED.has(w.toLowerCase()));
    if (unknown.length >= 2) throw new ContentRuleError(NAMED_PERSON_MESSAGE);
  }
}

/** The sentence every people prompt ends with. */
export const INVENTED_PERSON_FRAMING =
  'The person is invented: do not depict or resemble any real, named or famous individual, even if asked to.';
