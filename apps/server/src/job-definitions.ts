import type { AnyJobDefinition } from './jobs/definition.ts';
import type { JobRunnerHooks } from './jobs/hooks.ts';
import { notifyBatchIfDone } from './mail/notifications.ts';
import { captureHold, releaseHold } from './services/billing/index.ts';
import {
  generateCharactersJob,
  generatePreviewJob,
  processProductJob,
  renderHookVideoJob,
} from './services/hook-packs/index.ts';
import { checkCutoutJob, mergeCharacterJob } from './services/merge/index.ts';
import { renderCreatorPreviewJob } from './services/avatars/index.ts';
import { makeMouthStillsJob, makePhotorealActorJob } from './services/actors/index.ts';
import { renderProjectVideoJob } from './services/projects/index.ts';
import { emitJobEndedEvents } from './services/integrations/index.ts';
import { deliverWebhookJob } from './services/integrations/index.ts';

/** Each key must be the name of the definition under it (checked here by the compiler, and at boot). */
type ByOwnName<T> = { readonly [K in keyof T]: AnyJobDefinition & { readonly name: K } };
const byOwnName = <T extends ByOwnName<T>>(map: T): T => map;

/**
 * Every job this server runs, in one place: the areas define their jobs beside their services
 * (services/<area>/jobs.ts), and the runner (jobs/) gets this map when the context is built. A definition missing
 * here cannot be created (createJob takes only a JobName) and a row with an unknown name fails for good.
 */
export const JOB_DEFINITIONS = byOwnName({
  'render-project-video': renderProjectVideoJob,
  'merge-character': mergeCharacterJob,
  'check-cutout': checkCutoutJob,
  'process-product': processProductJob,
  'generate-characters': generateCharactersJob,
  'generate-preview': generatePreviewJob,
  'render-hook-video': renderHookVideoJob,
  'deliver-webhook': deliverWebhookJob,
  'render-creator-preview': renderCreatorPreviewJob,
  'make-photoreal-actor': makePhotorealActorJob,
  'make-mouth-stills': makeMouthStillsJob,
});

export type JobName = keyof typeof JOB_DEFINITIONS;

/**
 * What the runner does around every job: credit holds are settled by the credits service, batches mailed, and
 * finished videos announced to the user's webhooks.
 */
export const JOB_RUNNER_HOOKS: JobRunnerHooks = {
  settleHold: (trx, holdId, state) => (state === 'captured' ? captureHold(trx, holdId) : releaseHold(trx, holdId)),
  afterBatchJob: notifyBatchIfDone,
  afterJobEnded: emitJobEndedEvents,
};
