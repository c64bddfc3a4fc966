import { z } from 'zod';
import { ACTORS } from './avatars.ts';
import { ACCENTS, BIDI_CONTROL_MESSAGE, hasNoBidiControls, LANGUAGES, type Accent, type Language } from './common.ts';
import { LIMITS } from './constants.ts';
import { creditsTimes, PRICES } from './credits.ts';
import { Job } from './jobs.ts';
import {
  Aspect,
  ASPECTS,
  CAPTION_STYLE_LABELS,
  CAPTION_STYLES,
  CtaText,
  DEFAULT_ASPECT,
  type CaptionStyle,
} from './video.ts';

/*
 * Batch from a spreadsheet (docs/product.md#batch-from-a-spreadsheet): one CSV row per video. The rows are parsed
 * and checked first (nothing is spent), then the valid rows are queued together as one batch, each a normal project
 * video: the product in the actor's hand, the hook and script spoken, the call to action on the end card.
 */

export const BATCH_LIMITS = {
  /** One batch renders at most this many videos, so one upload cannot queue hours of work (decision 138). */
  rowsMax: 50,
  /** Product images sent beside the CSV in one request. */
  productFilesMax: 10,
  /** The CSV text itself. */
  csvMaxBytes: 256 * 1024,
  nameMax: 80,
} as const;

/** The columns, in template order. `product` is an image address (http/https) or the name of an attached image. */
export const BATCH_COLUMNS = [
  'product',
  'actor',
  'hook',
  'script',
  'cta',
  'language',
  'accent',
  'aspect',
  'caption_style',
  // Last, so sheets written before it (positional rows) still read the same.
  'voice',
] as const;
export type BatchColumn = (typeof BATCH_COLUMNS)[number];

export const BATCH_COLUMN_LABELS: Record<BatchColumn, string> = {
  product: 'Product',
  actor: 'Actor',
  hook: 'Hook',
  script: 'Script',
  cta: 'CTA',
  language: 'Language',
  accent: 'Accent',
  aspect: 'Aspect',
  caption_style: 'Caption style',
  voice: 'Voice',
};

/** Other header spellings people use in spreadsheets, lower-cased with spaces and dashes as underscores. */
const HEADER_ALIASES: Record<string, BatchColumn> = {
  product_image_url: 'product',
  product_url: 'product',
  image_url: 'product',
  product_image: 'product',
  image: 'product',
  call_to_action: 'cta',
  cta_text: 'cta',
  captions: 'caption_style',
  caption: 'caption_style',
  aspect_ratio: 'aspect',
  hook_text: 'hook',
  voice_id: 'voice',
  speaker: 'voice',
};

export const BATCH_MESSAGES = {
  empty: 'The CSV has no rows. Start from the template: a header line, then one line per video.',
  tooLarge: `The CSV is larger than ${BATCH_LIMITS.csvMaxBytes / 1024} KB.`,
  tooManyRows: `A batch has at most ${BATCH_LIMITS.rowsMax} rows; split the sheet into several batches.`,
  missingColumn: (c: string) => `The header has no "${c}" column.`,
  unknownColumn: (c: string) => `Unknown column "${c}"; the columns are ${BATCH_COLUMNS.join(', ')}.`,
  duplicateColumn: (c: string) => `The column "${c}" appears twice.`,
  unclosedQuote: 'A quoted value is never closed (a " is missing).',
  extraCells: 'This line has more cells than the header.',
  productRequired: 'Give an image address (https://…) or the name of an attached product image.',
  productNotAttached: (name: string) => `No attached image is named "${name}"; attach it or give an image address.`,
  actorUnknown: (v: string) => `Unknown actor "${v}"; use an actor id (1-${ACTORS.length}) or name ("Actor 3").`,
  scriptRequired: 'A script is required.',
  scriptTooLong: `The script must be at most ${LIMITS.scriptMax} characters.`,
  hookTooLong: `The hook must be at most ${LIMITS.hookTextMax} characters.`,
  hookAndScriptTooLong: `The hook and the script together must be at most ${LIMITS.scriptMax} characters.`,
  languageUnknown: (v: string) => `Unknown language "${v}"; use one of ${LANGUAGES.join(', ')}.`,
  accentUnknown: (v: string) => `Unknown accent "${v}"; use one of ${ACCENTS.join(', ')}.`,
  voiceUnknown: (v: string, language: Language) =>
    `No ${language.charAt(0).toUpperCase()}${language.slice(1)} voice is called "${v}"; use a voice's name or id as the voice list shows it.`,
  aspectUnknown: (v: string) => `Unknown aspect "${v}"; use one of ${ASPECTS.join(', ')}.`,
  captionStyleUnknown: (v: string) => `Unknown caption style "${v}"; use one of ${CAPTION_STYLES.join(', ')}.`,
  nothingToQueue: 'No row is valid: fix the errors and upload the sheet again.',
  alreadyQueued: 'This batch is already queued.',
  notFound: 'Batch not found',
  tooManyProducts: `Attach at most ${BATCH_LIMITS.productFilesMax} product images to one batch.`,
} as const;

/** One problem in the sheet: the line in the file (1 = header) and the column it is about, if any. */
export const BatchCellError = z.object({
  line: z.number().int(),
  column: z.enum(BATCH_COLUMNS).nullable(),
  message: z.string(),
});
export type BatchCellError = z.infer<typeof BatchCellError>;

/** A row's values as checked: what the video will be made of. */
export const BatchRowValues = z.object({
  product: z.string(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  hook: z.string(),
  script: z.string(),
  cta: z.string().nullable(),
  language: z.enum(LANGUAGES),
  accent: z.enum(ACCENTS),
  /** The voice the row asked for (an id of GET /api/voices); null: the best for its language, accent and actor. */
  voice_id: z.string().nullable().default(null),
  aspect: Aspect,
  caption_style: z.enum(CAPTION_STYLES),
});
export type BatchRowValues = z.infer<typeof BatchRowValues>;

/** A parsed row before the server has looked at its product. */
export interface ParsedBatchRow {
  line: number;
  /** The raw cells by column, as typed. */
  cells: Record<BatchColumn, string>;
  values: BatchRowValues;
  errors: BatchCellError[];
}

export interface ParsedBatchSheet {
  rows: ParsedBatchRow[];
  /** Problems of the whole file (header, size, row count). */
  errors: BatchCellError[];
}

/**
 * RFC 4180 records with the line each starts on (a quoted value may span lines). Quotes are doubled inside quoted
 * values; CRLF, LF and a leading byte-order mark are accepted. Blank lines are skipped.
 */
export function parseCsvRecords(text: string): {
  records: { line: number; cells: string[] }[];
  error: BatchCellError | null;
} {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const delimiter = guessDelimiter(src);
  const records: { line: number; cells: string[] }[] = [];
  let line = 1;
  let i = 0;
  while (i < src.length) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let inQuotes = false;
    let quotedStart = 0;
    let ended = false;
    while (i < src.length && !ended) {
      const ch = src[i]!;
      if (inQuotes) {
        if (ch === '"' && src[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (ch === '"') {
          inQuotes = false;
          i += 1;
        } else {
          if (ch === '\n') line += 1;
          cell += ch;
          i += 1;
        }
      } else if (ch === '"' && cell.trim() === '') {
        inQuotes = true;
        quotedStart = line;
        cell = '';
        i += 1;
      } else if (ch === delimiter) {
        cells.push(cell);
        cell = '';
        i += 1;
      } else if (ch === '\r' || ch === '\n') {
        i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
        line += 1;
        ended = true;
      } else {
        cell += ch;
        i += 1;
      }
    }
    if (inQuotes) return { records, error: { line: quotedStart, column: null, message: BATCH_MESSAGES.unclosedQuote } };
    cells.push(cell);
    if (cells.some((c) => c.trim() !== '')) records.push({ line: start, cells });
  }
  return { records, error: null };
}

/** Bytes of the text in UTF-8 (the limit is on the file, not on its characters). */
function utf8Length(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** Spreadsheets in many locales save with semicolons: the header line decides. */
function guessDelimiter(src: string): ',' | ';' | '\t' {
  const header = src.split(/\r?\n/, 1)[0] ?? '';
  const count = (d: string) => header.split(d).length - 1;
  const best = ([',', ';', '\t'] as const).reduce((a, b) => (count(b) > count(a) ? b : a));
  return count(best) > 0 ? best : ',';
}

const headerKey = (h: string): string =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The id a batch row keeps for one of the user's own creators (decision 202): never a catalogue id. */
export const creatorActorId = (avatarId: number): string => `creator-${avatarId}`;

/** An actor a sheet may name besides the catalogue: the user's own creators, by name. */
export interface SheetActor {
  id: string;
  name: string;
}

/** The user's own creators by name first (they were named by the user), then the catalogue by id or name. */
const findActor = (v: string, own: readonly SheetActor[]) => {
  const key = v.trim().toLowerCase();
  return (
    own.find((a) => a.name.trim().toLowerCase() === key) ??
    ACTORS.find((a) => a.id === key || a.name.toLowerCase() === key || `actor_${a.id}` === headerKey(key))
  );
};

/** A voice a sheet may name: by id (`flite:awb`), by name ("Alan") or by its whole label. */
export interface SheetVoice {
  id: string;
  label: string;
  language: Language;
}

const findVoice = (v: string, language: Language, voices: readonly SheetVoice[]) => {
  const key = v.trim().toLowerCase();
  return voices.find(
    (x) =>
      x.language === language &&
      (x.id.toLowerCase() === key ||
        x.label.toLowerCase() === key ||
        x.label.replace(/\s*\(.*\)\s*$/, '').toLowerCase() === key),
  );
};

const fromList = <T extends string>(list: readonly T[], v: string): T | undefined =>
  list.find((x) => x === v.trim().toLowerCase());

const captionStyleOf = (v: string): CaptionStyle | undefined => {
  const key = headerKey(v);
  return CAPTION_STYLES.find((s) => s === key || headerKey(CAPTION_STYLE_LABELS[s]) === key);
};

/** Whether a product cell is an image address the server fetches (rather than an attached file's name). */
export const isProductUrl = (v: string): boolean => /^https?:\/\//i.test(v.trim());

/**
 * The whole sheet checked against the same rules as the editors: actors from the catalogue (id or name), languages
 * and accents from our lists, a voice of the row's language from `voices` (by id or name), caption styles, the call
 * to action's length, the aspect. Empty optional cells take the defaults (actor 1, english, american, the best voice,
 * 9:16, word highlight, no hook, no end card). The product is only checked for presence here: the server fetches or
 * matches it.
 */
export function parseBatchSheet(
  text: string,
  own: readonly SheetActor[] = [],
  voices: readonly SheetVoice[] = [],
): ParsedBatchSheet {
  if (utf8Length(text) > BATCH_LIMITS.csvMaxBytes) {
    return { rows: [], errors: [{ line: 1, column: null, message: BATCH_MESSAGES.tooLarge }] };
  }
  const { records, error } = parseCsvRecords(text);
  const errors: BatchCellError[] = error ? [error] : [];
  const [header, ...body] = records;
  if (!header || body.length === 0)
    return { rows: [], errors: [...errors, { line: 1, column: null, message: BATCH_MESSAGES.empty }] };
  const columns: (BatchColumn | null)[] = [];
  for (const raw of header.cells) {
    const key = headerKey(raw);
    const col = (BATCH_COLUMNS as readonly string[]).includes(key) ? (key as BatchColumn) : HEADER_ALIASES[key];
    if (!col) {
      if (key !== '')
        errors.push({ line: header.line, column: null, message: BATCH_MESSAGES.unknownColumn(raw.trim()) });
      columns.push(null);
    } else if (columns.includes(col)) {
      errors.push({ line: header.line, column: col, message: BATCH_MESSAGES.duplicateColumn(col) });
      columns.push(null);
    } else columns.push(col);
  }
  for (const required of ['product', 'script'] as const) {
    if (!columns.includes(required))
      errors.push({ line: header.line, column: required, message: BATCH_MESSAGES.missingColumn(required) });
  }
  if (body.length > BATCH_LIMITS.rowsMax)
    errors.push({ line: body[BATCH_LIMITS.rowsMax]!.line, column: null, message: BATCH_MESSAGES.tooManyRows });
  const rows = body.slice(0, BATCH_LIMITS.rowsMax).map((r) => checkRow(r, columns, own, voices));
  return { rows, errors };
}

function checkRow(
  record: { line: number; cells: string[] },
  columns: (BatchColumn | null)[],
  own: readonly SheetActor[],
  voices: readonly SheetVoice[],
): ParsedBatchRow {
  const cells = Object.fromEntries(BATCH_COLUMNS.map((c) => [c, ''])) as Record<BatchColumn, string>;
  const errors: BatchCellError[] = [];
  const line = record.line;
  const fail = (column: BatchColumn | null, message: string) => errors.push({ line, column, message });
  record.cells.forEach((v, i) => {
    const col = columns[i];
    if (col) cells[col] = v.trim();
    else if (i >= columns.length && v.trim() !== '') fail(null, BATCH_MESSAGES.extraCells);
  });
  const actor = cells.actor ? findActor(cells.actor, own) : ACTORS[0];
  if (!actor) fail('actor', BATCH_MESSAGES.actorUnknown(cells.actor));
  if (!cells.product) fail('product', BATCH_MESSAGES.productRequired);
  if (!cells.script) fail('script', BATCH_MESSAGES.scriptRequired);
  else if (cells.script.length > LIMITS.scriptMax) fail('script', BATCH_MESSAGES.scriptTooLong);
  else if (!hasNoBidiControls(cells.script)) fail('script', BIDI_CONTROL_MESSAGE);
  if (cells.hook.length > LIMITS.hookTextMax) fail('hook', BATCH_MESSAGES.hookTooLong);
  else if (!hasNoBidiControls(cells.hook)) fail('hook', BIDI_CONTROL_MESSAGE);
  // The hook is spoken as the script's opening line, so both must fit one project script together.
  else if (
    cells.script &&
    cells.script.length <= LIMITS.scriptMax &&
    cells.hook.length + 1 + cells.script.length > LIMITS.scriptMax
  ) {
    fail('script', BATCH_MESSAGES.hookAndScriptTooLong);
  }
  const cta = CtaText.safeParse(cells.cta || null);
  if (!cta.success) fail('cta', cta.error.issues[0]?.message ?? 'Invalid call to action');
  else if (cta.data && !hasNoBidiControls(cta.data)) fail('cta', BIDI_CONTROL_MESSAGE);
  const language: Language | undefined = cells.language ? fromList(LANGUAGES, cells.language) : 'english';
  if (!language) fail('language', BATCH_MESSAGES.languageUnknown(cells.language));
  const accent: Accent | undefined = cells.accent ? fromList(ACCENTS, cells.accent) : 'american';
  if (!accent) fail('accent', BATCH_MESSAGES.accentUnknown(cells.accent));
  const voice = cells.voice && language ? findVoice(cells.voice, language, voices) : undefined;
  if (cells.voice && language && !voice) fail('voice', BATCH_MESSAGES.voiceUnknown(cells.voice, language));
  const aspect = cells.aspect ? Aspect.safeParse(cells.aspect.replace(/\s/g, '').replace(/x/i, ':')) : null;
  if (aspect && !aspect.success) fail('aspect', BATCH_MESSAGES.aspectUnknown(cells.aspect));
  const captionStyle = cells.caption_style ? captionStyleOf(cells.caption_style) : 'highlight';
  if (!captionStyle) fail('caption_style', BATCH_MESSAGES.captionStyleUnknown(cells.caption_style));
  return {
    line,
    cells,
    errors,
    values: {
      product: cells.product,
      actor_id: actor?.id ?? null,
      actor_name: actor?.name ?? null,
      hook: cells.hook,
      script: cells.script,
      cta: cta.success ? cta.data : null,
      language: language ?? 'english',
      accent: accent ?? 'american',
      voice_id: voice?.id ?? null,
      aspect: aspect?.success ? aspect.data : DEFAULT_ASPECT,
      caption_style: captionStyle ?? 'highlight',
    },
  };
}

/** The downloadable template: the header and two example rows (an image address and an attached file). */
export const BATCH_TEMPLATE_CSV = [
  BATCH_COLUMNS.join(','),
  'https://example.com/serum.png,Actor 1,Stop scrolling if your skin feels dull,"This serum changed my mornings. Two drops, and I glow all day.",Shop now,english,american,9:16,highlight,',
  'serum.png,2,POV: you found the serum everyone asks about,"Light, fast, no sticky feel. My skin drinks it in.",Try it today,spanish,neutral,4:5,boxed,Spanish female',
  '',
].join('\r\n');

export const BATCH_STATUSES = ['draft', 'queued'] as const;
export const BatchStatus = z.enum(BATCH_STATUSES);

export const BatchRow = z.object({
  id: z.number().int(),
  line: z.number().int(),
  cells: z.record(z.string(), z.string()),
  values: BatchRowValues,
  /** The product as stored (show it from /api/static/{product_url}), once fetched or attached. */
  product_url: z.string().nullable(),
  errors: z.array(BatchCellError),
  project_id: z.number().int().nullable(),
  job: Job.nullable(),
});
export type BatchRow = z.infer<typeof BatchRow>;

export const Batch = z.object({
  id: z.number().int(),
  name: z.string(),
  status: BatchStatus,
  created_at: z.string(),
  /** Problems of the whole file (header, size, row count). */
  errors: z.array(BatchCellError),
  rows: z.array(BatchRow),
  valid_rows: z.number().int(),
  /** Credits the valid rows cost together; held when the batch is queued. */
  total_price: z.number(),
  /** Once queued: how many videos are in each state, and the overall progress 0-100. */
  progress: z.object({
    queued: z.number().int(),
    in_progress: z.number().int(),
    completed: z.number().int(),
    failed: z.number().int(),
    percent: z.number(),
  }),
  /** The zip of the finished videos and manifest.csv (`/api/{zip_url}`), once any is finished. */
  zip_url: z.string().nullable(),
});
export type Batch = z.infer<typeof Batch>;

export const BatchSummary = Batch.pick({
  id: true,
  name: true,
  status: true,
  created_at: true,
  valid_rows: true,
  total_price: true,
  progress: true,
});
export type BatchSummary = z.infer<typeof BatchSummary>;

/** Text fields of POST /batches (multipart): the CSV as text (or a `csv` file part) and an optional name. */
export const CreateBatchFields = z.object({
  csv: z.string().optional(),
  name: z.string().trim().max(BATCH_LIMITS.nameMax).optional(),
});

/** What the valid rows of a sheet cost together, in credits. */
export const batchPrice = (validRows: number): number => creditsTimes(PRICES.video, validRows);
