import { addColumns, type Migration } from './helpers.ts';

/**
 * The brand kit's AI label mode (decision 201: when videos show "AI-generated") and, for actors made from a
 * person's photo, the words of what that person agreed to (decision 202), kept beside the consent date and the
 * uploader. Kits saved before keep the default, labelling videos of real people's photos.
 */
export const aiLabelsOwnCreatorsMigration: Migration = {
  name: '027-ai-labels-own-creators',
  async up(db) {
    await addColumns(db, 'brand_kits', { ai_label: ['text', (c) => c.notNull().defaultTo('real_photos')] });
    await addColumns(db, 'avatars', { consent_text: 'text' });
  },
};
