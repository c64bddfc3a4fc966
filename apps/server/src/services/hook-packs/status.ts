import { hookPackBadge, VALIDATION, type HookPack, type HookPackStatus } from '@hookreel/contracts';
import { conflict, unprocessable } from '../../errors.ts';

/**
 * The statuses a request may set (PUT /hooks/{id}) are the wizard's steps, in this order. `created` and the
 * `generating_*` states belong to the server (it sets them when it starts work), so no request sets them.
 */
const STEPS = [
  'created',
  'product_uploaded',
  'character_types_defined',
  'message_created',
  'characters_selected',
  'previews_ready',
  'videos_ready',
  'completed',
] as const;
/** Where the server's own states sit among the steps: the step whose work they are doing has been reached. */
const RANK: Record<string, number> = {
  ...Object.fromEntries(STEPS.map((s, i) => [s, i])),
  generating_characters: 2,
  generating_previews: 4,
  generating_videos: 5,
};

/** What the pack must hold before each step can be claimed; each step needs the ones before it too. */
const REQUIRES: Record<(typeof STEPS)[number], { holds: (p: HookPack, videos: number) => boolean; detail: string }> = {
  created: { holds: () => true, detail: '' },
  product_uploaded: { holds: (p) => p.product_url !== null, detail: 'Upload a product image first' },
  character_types_defined: { holds: (p) => p.character_types.length > 0, detail: VALIDATION.characterTypesMin },
  message_created: { holds: (p) => Boolean(p.message?.trim()), detail: VALIDATION.hookRequired },
  characters_selected: {
    holds: (p) => p.generated_characters.some((c) => c.selected),
    detail: VALIDATION.selectOneCharacter,
  },
  previews_ready: {
    holds: (p) => p.preview_characters.some((c) => c.approved),
    detail: VALIDATION.noApprovedCharacters,
  },
  videos_ready: { holds: (_p, videos) => videos > 0, detail: 'Generate the videos first' },
  completed: { holds: (_p, videos) => videos > 0, detail: 'Generate the videos first' },
};

/**
 * Whether a request may move `pack` (as it will be after the rest of the same request, e.g. a new message) to
 * `target`: only forward (or staying put), only to a wizard step, and only once the pack holds what that step
 * and every step before it need. `videos` is how many video jobs the pack has. Throws 422/409 with a detail a
 * person can act on.
 */
export function checkStatusChange(pack: HookPack, target: HookPackStatus, videos: number): void {
  const to = STEPS.indexOf(target as (typeof STEPS)[number]);
  if (to <= 0)
    throw unprocessable(`The status "${hookPackBadge(target).label}" is set by the server, not by a request`);
  const from = RANK[pack.status] ?? 0;
  if (to < from) {
    throw conflict(
      `A hook pack only moves forward: it is "${hookPackBadge(pack.status).label}", ` +
        `so it cannot go back to "${hookPackBadge(target).label}"`,
    );
  }
  for (const step of STEPS.slice(1, to + 1)) {
    const rule = REQUIRES[step];
    if (!rule.holds(pack, videos)) {
      throw conflict(`Cannot mark the pack "${hookPackBadge(target).label}" yet: ${rule.detail}`);
    }
  }
}
