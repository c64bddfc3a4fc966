import { z } from 'zod';
import { Avatar } from './avatars.ts';

/**
 * Own creators (decision 202): private actors a signed-in user adds from a photo of a person who agreed to it. Only
 * their owner sees or uses them; another user gets 404 everywhere.
 */

export const CREATOR_LIMITS = { nameMax: 60 } as const;

/** What the pictured person agreed to: the words of the consent box, kept with the creator. */
export const creatorConsentText = (name: string): string =>
  `${name} agreed that their photo and likeness may be animated by AI to speak scripts in video ads made with ` +
  'Hookreel, and that those videos, labelled as AI-generated, may be published.';

export const CREATOR_MESSAGES = {
  nameRequired: 'Give the creator a name',
  nameTooLong: `Names can be at most ${CREATOR_LIMITS.nameMax} characters`,
  photoRequired: 'Choose a photo of the creator',
  consentRequired: 'Confirm that the person in the photo agreed to be animated in your ads',
  deleted: 'Creator deleted',
} as const;

/** Multipart form fields of POST /api/creators (beside the file `photo`). */
export const CREATOR_FIELDS = { photo: 'photo', name: 'name', consent: 'consent' } as const;

export const CreatorName = z
  .string()
  .trim()
  .min(1, CREATOR_MESSAGES.nameRequired)
  .max(CREATOR_LIMITS.nameMax, CREATOR_MESSAGES.nameTooLong);

export const CreatorConsent = z.object({
  /** What the person agreed to, as the uploader confirmed it. */
  text: z.string(),
  /** When the uploader confirmed it (ISO 8601). */
  confirmed_at: z.string(),
  /** Who confirmed it: the uploader's e-mail address. */
  confirmed_by: z.string().nullable(),
});
export type CreatorConsent = z.infer<typeof CreatorConsent>;

export const Creator = Avatar.extend({
  name: z.string(),
  consent: CreatorConsent,
  created_at: z.string(),
});
export type Creator = z.infer<typeof Creator>;

export const RenameCreatorRequest = z.object({ name: CreatorName }).strict();
export type RenameCreatorRequest = z.infer<typeof RenameCreatorRequest>;
