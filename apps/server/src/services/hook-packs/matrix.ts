import { cellKey, MATRIX_LIMITS, MATRIX_MESSAGES, matrixCells, variantId, type HookMatrix } from '@hookreel/contracts';
import { unprocessable } from '../../errors.ts';

export interface PlannedVariant {
  variant_index: number;
  generated_character_id: number;
  hook_text: string;
  variant_id: string;
  cta_text: string | null;
}

/**
 * The videos of a hook matrix: its chosen cells (every cell when none are chosen), hook-major, numbered 1…n.
 * The cell id numbers the actor by its place among the pack's approved characters (as 'Character n' does), so
 * 'A2' is Character 2 on every card, file and manifest line. The schema already bounds the lists; the rules
 * that need the pack (approved actors) or the whole request (duplicates, cells, total) are checked here.
 */
export function planMatrix(matrix: HookMatrix, approvedCharacters: readonly number[]): PlannedVariant[] {
  const hooks = matrix.hooks.map((h) => h.trim());
  const ctas = matrix.ctas.map((c) => c.trim());
  if (hooks.length > MATRIX_LIMITS.hooksMax) throw unprocessable(MATRIX_MESSAGES.tooManyHooks);
  if (ctas.length > MATRIX_LIMITS.ctasMax) throw unprocessable(MATRIX_MESSAGES.tooManyCtas);
  if (new Set(hooks.map((h) => h.toLowerCase())).size !== hooks.length)
    throw unprocessable(MATRIX_MESSAGES.duplicateHook);
  if (new Set(ctas.map((c) => c.toLowerCase())).size !== ctas.length) throw unprocessable(MATRIX_MESSAGES.duplicateCta);
  if (new Set(matrix.character_ids).size !== matrix.character_ids.length)
    throw unprocessable(MATRIX_MESSAGES.duplicateActor);
  if (matrix.character_ids.some((id) => !approvedCharacters.includes(id)))
    throw unprocessable(MATRIX_MESSAGES.actorNotApproved);

  const size = { hooks: hooks.length, actors: matrix.character_ids.length, ctas: ctas.length };
  let cells = matrixCells(size);
  if (matrix.cells) {
    const chosen = new Set<string>();
    for (const c of matrix.cells) {
      if (c.hook >= size.hooks || c.actor >= size.actors || c.cta >= size.ctas)
        throw unprocessable(MATRIX_MESSAGES.cellOutside);
      if (chosen.has(cellKey(c))) throw unprocessable(MATRIX_MESSAGES.duplicateCell);
      chosen.add(cellKey(c));
    }
    cells = cells.filter((c) => chosen.has(cellKey(c)));
  }
  if (cells.length === 0) throw unprocessable(MATRIX_MESSAGES.noCells);
  if (cells.length > MATRIX_LIMITS.cellsMax) throw unprocessable(MATRIX_MESSAGES.tooManyCells);

  return cells.map((c, i) => {
    const characterId = matrix.character_ids[c.actor] as number;
    return {
      variant_index: i + 1,
      generated_character_id: characterId,
      hook_text: hooks[c.hook] as string,
      variant_id: variantId(c.hook + 1, approvedCharacters.indexOf(characterId) + 1, c.cta + 1),
      cta_text: ctas[c.cta] as string,
    };
  });
}

/**
 * The cell id of a video of the 12-video pack (or of edited pairs): its own hook number (the video's number, so
 * a line repeated for another video still gets its own id), the actor's place among the approved characters,
 * and the pack's one call to action (C1).
 */
export const cellIdOfPair = (
  pair: { variant_index: number; generated_character_id: number },
  approvedCharacters: readonly number[],
): string => variantId(pair.variant_index, approvedCharacters.indexOf(pair.generated_character_id) + 1, 1);
