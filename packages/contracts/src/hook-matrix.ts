import { z } from 'zod';
import { BIDI_CONTROL_MESSAGE, hasNoBidiControls } from './common.ts';
import { LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';
import { CTA_MAX } from './video.ts';

/*
 * The hook matrix: several hooks × several actors × several calls to action, rendered for every cell or for the
 * cells the user keeps ticked. Each video is named by its cell, `H2-A1-C3` (hook 2, actor 1, CTA 3), so results
 * from an ad platform join back to what was in the video (docs/product.md#hook-matrix).
 */

const MATRIX_LIMITS_CELLS = 250;

export const MATRIX_LIMITS = {
  hooksMax: 10,
  ctasMax: 5,
  /** One request renders at most this many videos (10 hooks × 5 actors × 5 CTAs), so one click cannot queue hours. */
  cellsMax: MATRIX_LIMITS_CELLS,
} as const;

export const MATRIX_MESSAGES = {
  tooManyHooks: `A matrix has at most ${MATRIX_LIMITS.hooksMax} hooks.`,
  tooManyCtas: `A matrix has at most ${MATRIX_LIMITS.ctasMax} calls to action.`,
  noHooks: 'Add at least one hook.',
  noActors: 'Pick at least one approved actor.',
  noCtas: 'Add at least one call to action.',
  duplicateHook: 'Each hook must be different.',
  duplicateCta: 'Each call to action must be different.',
  duplicateActor: 'Each actor can be picked once.',
  actorNotApproved: 'Every actor in the matrix must be an approved preview of this pack.',
  cellOutside: 'A chosen cell points at a hook, actor or call to action that is not in the matrix.',
  duplicateCell: 'Each cell can be chosen once.',
  noCells: 'Tick at least one video to generate.',
  bothForms: 'Send either variants or a matrix, not both.',
  tooManyCells: `A matrix renders at most ${MATRIX_LIMITS_CELLS} videos at once; untick some or use fewer hooks, actors or CTAs.`,
} as const;

const HookLine = z
  .string()
  .trim()
  .min(1, VALIDATION.hookRequired)
  .max(LIMITS.hookTextMax)
  .refine(hasNoBidiControls, BIDI_CONTROL_MESSAGE);
const CtaLine = z
  .string()
  .trim()
  .min(1, MATRIX_MESSAGES.noCtas)
  .max(CTA_MAX, `The call to action must be at most ${CTA_MAX} characters`)
  .refine(hasNoBidiControls, BIDI_CONTROL_MESSAGE);

/** One cell: 0-based positions in the matrix's hooks, actors and CTAs lists. */
export const MatrixCell = z.object({
  hook: z.number().int().min(0),
  actor: z.number().int().min(0),
  cta: z.number().int().min(0),
});
export type MatrixCell = z.infer<typeof MatrixCell>;

export const HookMatrix = z.object({
  hooks: z.array(HookLine).min(1, MATRIX_MESSAGES.noHooks).max(MATRIX_LIMITS.hooksMax, MATRIX_MESSAGES.tooManyHooks),
  /** Generated character ids of approved previews, in any order. */
  character_ids: z.array(z.number().int().positive()).min(1, MATRIX_MESSAGES.noActors),
  ctas: z.array(CtaLine).min(1, MATRIX_MESSAGES.noCtas).max(MATRIX_LIMITS.ctasMax, MATRIX_MESSAGES.tooManyCtas),
  /** The cells to render; absent means every cell (the cross product). */
  cells: z.array(MatrixCell).min(1, MATRIX_MESSAGES.noCells).optional(),
});
export type HookMatrix = z.infer<typeof HookMatrix>;

/** 'H2-A1-C3': 1-based hook, actor and CTA numbers of a video. */
export const variantId = (hook: number, actor: number, cta: number): string => `H${hook}-A${actor}-C${cta}`;

/** Every cell of the matrix, hook-major (all of hook 1's videos first), as the grid lists them. */
export function matrixCells(size: { hooks: number; actors: number; ctas: number }): MatrixCell[] {
  const out: MatrixCell[] = [];
  for (let hook = 0; hook < size.hooks; hook++)
    for (let actor = 0; actor < size.actors; actor++)
      for (let cta = 0; cta < size.ctas; cta++) out.push({ hook, actor, cta });
  return out;
}

export const cellKey = (c: MatrixCell): string => `${c.hook}:${c.actor}:${c.cta}`;
