import { addColumns, type Migration } from './helpers.ts';

/**
 * What a person calls a video: the actor in it and, for a hook pack, which video and hook line it is. Written
 * when the job is created, so job cards, download names and the pack's manifest read the same words without
 * joining back to rows that may since have changed or gone.
 */
export const jobLabelsMigration: Migration = {
  name: '010-job-labels',
  async up(db) {
    await addColumns(db, 'jobs', { actor_name: 'text', variant_label: 'text', hook_text: 'text' });
  },
};
