import {
  MESSAGES,
  MIN_BILLED_SECONDS,
  PRICES,
  REALISTIC_HOOK_SECONDS,
  realisticVideoCost,
  roundCredits,
  spokenSeconds,
  type VideoQuality,
} from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { hookPacksRepository } from '../../db/repositories/hook-packs.ts';
import { unprocessable } from '../../errors.ts';
import { assertInventedPerson, ContentRuleError } from '../../media/values.ts';

/**
 * The Realistic rules every video area shares: whether this server can make one, what one costs, and who may be
 * in it. Checked before anything is held, so no credits wait on a job that would only fail.
 */

/**
 * Realistic needs the providers of every realistic stage (GET /api/capabilities says which): refused with the
 * missing ones named when this server lacks any, so no credits are held for a job that would only fail.
 */
export function assertRealisticAvailable(
  ctx: Pick<AppContext, 'media'>,
  kind: 'videos' | 'hookPacks' = 'videos',
): void {
  const { realistic } = ctx.media.capabilities();
  const availability = kind === 'videos' ? realistic.videos : realistic.hook_packs;
  if (!availability.available) {
    throw unprocessable(`${MESSAGES.realistic.unavailable} ${availability.missing.join('; ')}.`);
  }
}

/**
 * A Realistic hook video makes its character photoreal from the character's description, so a description that
 * asks for a named or famous person is refused here (422), before anything is held, rather than failing at the
 * images provider once the user has paid and waited.
 */
export async function assertInventedCharacters(
  db: Executor,
  packId: number,
  characterIds: readonly number[],
): Promise<void> {
  for (const c of await hookPacksRepository.charactersByIds(db, packId, [...new Set(characterIds)])) {
    // An own creator's photo is animated by the engine in Draft; Realistic packs have no photo path yet (decision 207).
    if (c.avatar_id !== null) throw unprocessable(MESSAGES.hookPacks.creatorRealistic);
    try {
      assertInventedPerson(c.prompt);
    } catch (e) {
      throw e instanceof ContentRuleError ? unprocessable(e.message) : e;
    }
  }
}

/**
 * A catalogue actor is a drawing: Realistic makes it a real-looking person through the images provider first
 * (decision 125). Without that provider the talking-actor model would animate the drawing, so a Realistic video or
 * merge of one is refused here (422), before anything is held; an uploaded photo actor needs no images provider.
 */
export function assertRealisticActor(
  ctx: Pick<AppContext, 'media'>,
  avatar: { catalogue_actor_id: string | null },
): void {
  if (avatar.catalogue_actor_id !== null && !ctx.media.capabilities().stages.characters.remote) {
    throw unprocessable(MESSAGES.realistic.catalogueActorNeedsImages);
  }
}

/** What pricing needs of a project: its script and speed, or the length of its own recording when that speaks. */
export type PricedProject = {
  script: string;
  voice_speed: number;
  voice_source?: string;
  voice_over_duration_sec?: number | null;
};

/**
 * What one video of a project costs in its quality: the Draft price, or the Realistic price for its length — the
 * script's estimated speaking time, or the measured length of the user's own recording when it is the voice.
 */
export function projectVideoCredits(
  ctx: Pick<AppContext, 'config'>,
  quality: VideoQuality,
  project: PricedProject,
): number {
  if (quality !== 'realistic') return PRICES.video;
  return realisticVideoCost(ctx.config.realisticCreditsPerSecond, projectSpeechSeconds(project));
}

/** Seconds of speech a project's video carries: the user's own recording's length, else the script's estimate. */
export function projectSpeechSeconds(project: PricedProject): number {
  const own = project.voice_source === 'own' && project.voice_over_duration_sec != null;
  return own
    ? Math.max(MIN_BILLED_SECONDS, Math.ceil(Number(project.voice_over_duration_sec)))
    : spokenSeconds(project.script, project.voice_speed);
}

/**
 * A Realistic video's speech must fit the talking-actor model (OmniHuman takes under 30 s): refused here, 422,
 * before any credit is held or any provider called, rather than failing at the last step after the voice and the
 * image were paid for. Long speech is refused, not split (decision 183).
 */
export function assertSpeechFitsAvatar(ctx: Pick<AppContext, 'media'>, seconds: number): void {
  const max = ctx.media.maxTalkingSpeechSec();
  if (max != null && seconds > max) throw unprocessable(MESSAGES.realistic.speechTooLong(seconds, max));
}

/** The Realistic price of a project's video minus the Draft price already paid for it. */
export const upgradeCredits = (ctx: Pick<AppContext, 'config'>, project: PricedProject): number =>
  roundCredits(projectVideoCredits(ctx, 'realistic', project) - PRICES.video);

/** A hook video's Realistic price (a flat length, whatever its line) minus the Draft price already paid. */
export const packUpgradeCredits = (ctx: Pick<AppContext, 'config'>): number =>
  roundCredits(realisticVideoCost(ctx.config.realisticCreditsPerSecond, REALISTIC_HOOK_SECONDS) - PRICES.video);
