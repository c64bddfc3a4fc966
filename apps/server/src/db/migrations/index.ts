import { authMigration } from './001-auth.ts';
import { jobsCreditsMigration } from './002-jobs-credits.ts';
import { projectsAvatarsMigration } from './003-projects-avatars.ts';
import { hookPacksMigration } from './004-hook-packs.ts';
import { idempotencyKeysMigration } from './005-idempotency-keys.ts';
import { housekeepingIndexesMigration } from './006-housekeeping-indexes.ts';
import { verifiedSignInMigration } from './007-verified-sign-in.ts';
import { jobLabelsMigration } from './010-job-labels.ts';
import { providerCostConsentMigration } from './012-provider-cost-consent.ts';
import { billingMigration } from './008-billing.ts';
import { videoStyleMigration } from './009-video-style.ts';
import { apiKeysWebhooksMigration } from './017-api-keys-webhooks.ts';
import { hookMatrixMigration } from './018-hook-matrix.ts';
import { renderQualityMigration } from './016-render-quality.ts';
import { aspectsMigration } from './019-aspects.ts';
import { csvBatchesMigration } from './020-csv-batches.ts';
import { brandKitMigration } from './021-brand-kit.ts';
import { ownVoiceOverMigration } from './022-own-voice-over.ts';
import { creditsTrialsKeysMigration } from './023-credits-trials-keys.ts';
import { webhookPausingMigration } from './024-webhook-pausing.ts';
import { avatarFaceMigration } from './026-avatar-face.ts';
import { aiLabelsOwnCreatorsMigration } from './027-ai-labels-own-creators.ts';
import { projectVoiceMigration } from './028-project-voice.ts';
import { packCreatorsMigration } from './029-pack-creators.ts';
import { hookPackVoiceMigration } from './030-hook-pack-voice.ts';
import { cutoutCheckMigration } from './031-cutout-check.ts';
import { actorLooksMigration } from './032-actor-looks.ts';
import type { Migration } from './helpers.ts';

/** Every migration in order. Each area appends its own file; names never change once landed. */
export const MIGRATIONS: readonly Migration[] = [
  authMigration,
  jobsCreditsMigration,
  projectsAvatarsMigration,
  hookPacksMigration,
  idempotencyKeysMigration,
  housekeepingIndexesMigration,
  jobLabelsMigration,
  providerCostConsentMigration,
  billingMigration,
  verifiedSignInMigration,
  videoStyleMigration,
  apiKeysWebhooksMigration,
  hookMatrixMigration,
  renderQualityMigration,
  csvBatchesMigration,
  brandKitMigration,
  aspectsMigration,
  ownVoiceOverMigration,
  creditsTrialsKeysMigration,
  webhookPausingMigration,
  avatarFaceMigration,
  aiLabelsOwnCreatorsMigration,
  projectVoiceMigration,
  packCreatorsMigration,
  hookPackVoiceMigration,
  cutoutCheckMigration,
  actorLooksMigration,
];
