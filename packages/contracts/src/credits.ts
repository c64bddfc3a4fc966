import { z } from 'zod';

/**
 * What each generation costs in credits. One credit buys one video (plans sell "videos/credits" one to one);
 * images cost fractions. Every screen and the server read these; GET /api/credits/prices serves them.
 */
export const PRICES = {
  video: 1,
  characterGeneration: 0.05,
  previewImage: 0.1,
  merge: 0.1,
  /** A catalogue actor made photoreal once for a user: one provider image, priced as a preview image is. */
  photorealActor: 0.1,
  /** One of an actor's real mouth stills: one image edit each (MOUTH_STILL_SHAPES of them, made together). */
  mouthStill: 0.1,
} as const;

export type PricedOperation = keyof typeof PRICES;

/** What a person calls each priced operation, singular and plural, for cost labels and the ledger. */
export const PRICE_LABELS: Record<PricedOperation, { one: string; many: string }> = {
  video: { one: 'video', many: 'videos' },
  characterGeneration: { one: 'character', many: 'characters' },
  previewImage: { one: 'preview', many: 'previews' },
  merge: { one: 'merge', many: 'merges' },
  photorealActor: { one: 'photoreal actor', many: 'photoreal actors' },
  mouthStill: { one: 'mouth still', many: 'mouth stills' },
};

/**
 * The mouth shapes an actor's real mouth stills show (the engine's photo visemes with the most open mouths, where
 * drawn teeth show most); the other shapes keep the warped lips.
 */
export const MOUTH_STILL_SHAPES = ['aa', 'ee', 'oh', 'oo', 'fv'] as const;

/** Characters generated for each character type of a hook pack (and by 'Generate More'). */
export const CHARACTERS_PER_TYPE = 4;
/** Videos in one hook pack. */
export const VIDEOS_PER_PACK = 12;

/**
 * Money arithmetic, in one place for the server and the web. Credits are decimals with two places at the API and
 * on screen, and integer hundredths in the database; every rounding of an amount goes through these.
 */
/** Credits as the database stores them: integer hundredths. */
export const toHundredths = (credits: number): number => Math.round(credits * 100);
/** Hundredths as the API and screens show them: credits. */
export const fromHundredths = (hundredths: number): number => hundredths / 100;
/** An amount rounded to the hundredth, so sums and differences read 0.30, not 0.30000000000000004. */
export const roundCredits = (credits: number): number => Math.round(credits * 100) / 100;
/** `units` at `price` each, computed in hundredths so 3 × 0.1 is 0.30. */
export const creditsTimes = (price: number, units: number): number => Math.round(price * 100 * units) / 100;

/** Cost of `units` of an operation. */
export const costOf = (operation: PricedOperation, units = 1): number => creditsTimes(PRICES[operation], units);

export interface PackEstimate {
  characters: number;
  previews: number;
  videos: number;
  total: number;
}

/**
 * A hook pack's total before its first spend: 4 characters per type, a preview of each (the most the wizard
 * makes without regenerating) and the pack's 12 videos.
 */
export function estimatePack(characterTypes: number, previews = characterTypes * CHARACTERS_PER_TYPE): PackEstimate {
  const characters = costOf('characterGeneration', characterTypes * CHARACTERS_PER_TYPE);
  const previewCost = costOf('previewImage', previews);
  const videos = costOf('video', VIDEOS_PER_PACK);
  return {
    characters,
    previews: previewCost,
    videos,
    total: roundCredits(characters + previewCost + videos),
  };
}

/**
 * What the free trial buys: one full hook pack (one character type, its 4 characters, 4 previews, 12 videos)
 * plus one product-in-hand video (one merge, one video). TRIAL_CREDITS on the server may change the amount;
 * this is the default and what the landing page promises.
 */
export const TRIAL_INCLUDES = {
  hookPacks: 1,
  packVideos: VIDEOS_PER_PACK,
  packCharacters: CHARACTERS_PER_TYPE,
  packPreviews: CHARACTERS_PER_TYPE,
  productInHandVideos: 1,
} as const;

export const DEFAULT_TRIAL_CREDITS = roundCredits(estimatePack(1).total + costOf('merge') + costOf('video'));

/** The trial's default amount under its older name (tests and callers written before TRIAL_CREDITS). */
export const FREE_CREDITS_GRANT = DEFAULT_TRIAL_CREDITS;

/** The landing page's free-trial sentence, stating what the default trial buys. */
export const TRIAL_PROMISE = `${DEFAULT_TRIAL_CREDITS.toFixed(2)} free credits: one hook pack of ${TRIAL_INCLUDES.packVideos} videos (with its ${TRIAL_INCLUDES.packCharacters} characters and previews) plus ${TRIAL_INCLUDES.productInHandVideos} product-in-hand video`;

/** Credits display: 2 decimals, or 0.00 if empty or zero. */
export const formatCredits = (credits: number | string | null | undefined): string => {
  const n = typeof credits === 'string' ? Number.parseFloat(credits) : credits;
  if (n === null || n === undefined || !Number.isFinite(n) || n === 0) return '0.00';
  return n.toFixed(2);
};

/** "12.00 credits", "0.05 credits", "1.00 credit". */
export const creditsLabel = (credits: number): string =>
  `${formatCredits(credits)} ${credits === 1 ? 'credit' : 'credits'}`;

/** A spending button's text with its price: "Generate 12 videos · 12.00 credits". */
export const withCost = (label: string, credits: number): string => `${label} · ${creditsLabel(credits)}`;

/**
 * Realistic videos are priced from what the talking-actor provider bills, per second of video: a Draft video's
 * price plus `creditsPerSecond` for each second the voice is expected to speak. The server's operator sets
 * creditsPerSecond (REALISTIC_CREDITS_PER_SECOND, docs/providers.md); this is its default.
 */
export const DEFAULT_REALISTIC_CREDITS_PER_SECOND = 0.04;
/** Characters a voice speaks per second at normal speed (a conservative average over our languages). */
export const SPOKEN_CHARACTERS_PER_SECOND = 14;
/** A provider bills a few seconds at least, however short the line. */
export const MIN_BILLED_SECONDS = 3;
/** A hook-pack video speaks one hook line; every one is priced at this length, whatever line it gets. */
export const REALISTIC_HOOK_SECONDS = 8;

/** Whole seconds a script takes to speak at `speed` (estimated, rounded up). */
export function spokenSeconds(text: string, speed = 1): number {
  const chars = [...text.trim()].length;
  return Math.max(MIN_BILLED_SECONDS, Math.ceil(chars / (SPOKEN_CHARACTERS_PER_SECOND * (speed > 0 ? speed : 1))));
}

/** A Realistic video of `seconds`: the Draft price plus the per-second provider share, in hundredths. */
export const realisticVideoCost = (creditsPerSecond: number, seconds: number): number =>
  roundCredits(PRICES.video + creditsPerSecond * seconds);

// HTTP ------------------------------------------------------------------------------------------------------

/** GET /api/credits/prices */
export const PriceList = z.object({
  prices: z.object({
    video: z.number(),
    characterGeneration: z.number(),
    previewImage: z.number(),
    merge: z.number(),
    // Defaults: added after the list's first clients, which do not send them.
    photorealActor: z.number().default(PRICES.photorealActor),
    mouthStill: z.number().default(PRICES.mouthStill),
  }),
  trial_credits: z.number(),
  /** Realistic mode: credits per second of provider video (on top of `prices.video`), and a hook video's price. */
  realistic: z.object({ credits_per_second: z.number(), hook_video: z.number() }),
  characters_per_type: z.number().int(),
  videos_per_pack: z.number().int(),
});
export type PriceList = z.infer<typeof PriceList>;

/** The body of a 402: the message people see and how many credits are missing. */
export const PaymentRequiredBody = z.object({
  detail: z.string(),
  required: z.number().optional(),
  available: z.number().optional(),
  missing: z.number().optional(),
});
export type PaymentRequiredBody = z.infer<typeof PaymentRequiredBody>;

export const LEDGER_KINDS = ['grant', 'purchase', 'hold', 'capture', 'release', 'refund', 'take', 'expire'] as const;
export const LedgerKind = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof LedgerKind>;

/** How each ledger kind reads in the history, and whether it moves the spendable balance up or down. */
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  grant: 'Grant',
  purchase: 'Purchase',
  hold: 'Hold',
  capture: 'Charged',
  release: 'Released',
  refund: 'Refund',
  take: 'Removed',
  expire: 'Expired',
};

export const LedgerEntry = z.object({
  id: z.number().int(),
  kind: LedgerKind,
  /** Signed change of the spendable balance: +5 for a grant, −1 for a hold, 0 for a capture (already held). */
  change: z.number(),
  /** The credits the entry is about (always positive). */
  amount: z.number(),
  /** Spendable balance right after this entry; null for entries written before the ledger recorded it. */
  balance_after: z.number().nullable(),
  reason: z.string(),
  job_id: z.number().int().nullable(),
  hook_pack_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const LEDGER_PAGE_SIZE = 25;

export const LedgerQuery = z.object({ cursor: z.coerce.number().int().positive().optional() });
export const LedgerPage = z.object({
  entries: z.array(LedgerEntry),
  /** Pass as ?cursor= for the next (older) page; null on the last page. */
  next_cursor: z.number().int().nullable(),
});
export type LedgerPage = z.infer<typeof LedgerPage>;

/** Administrators: POST /api/admin/credits */
export const AdminCreditAdjustment = z.object({
  email: z.string().trim().min(3).max(320),
  action: z.enum(['grant', 'take']),
  amount: z.number().positive().max(100_000).multipleOf(0.01),
  reason: z.string().trim().min(3, 'Please give a reason').max(500),
});
export type AdminCreditAdjustment = z.infer<typeof AdminCreditAdjustment>;
export const AdminCreditAdjustmentResult = z.object({ email: z.string(), credits: z.number() });

// Refunds ---------------------------------------------------------------------------------------------------

export const REFUND_STATES = ['pending', 'approved', 'declined'] as const;
export const RefundState = z.enum(REFUND_STATES);
export const RefundRequestBody = z.object({
  reason: z.string().trim().min(5, 'Please describe the problem').max(1000),
});
export const RefundRequest = z.object({
  id: z.number().int(),
  job_id: z.number().int(),
  user_email: z.string(),
  project_name: z.string(),
  amount: z.number(),
  reason: z.string(),
  state: RefundState,
  decision_note: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});
export type RefundRequest = z.infer<typeof RefundRequest>;
export const RefundDecision = z.object({
  decision: z.enum(['approve', 'decline']),
  note: z.string().trim().max(500).optional(),
});
