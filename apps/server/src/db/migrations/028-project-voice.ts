import type { Migration } from './helpers.ts';

/**
 * The voice a project chose (decision 211, issue #31): an id of GET /api/voices (`flite:rms`, `piper:…`), or null
 * for the best voice of its language, accent and actor's gender. A voice later removed from the server gives way
 * to that best voice at render time, so the column needs no foreign key.
 */
export const projectVoiceMigration: Migration = {
  name: '028-project-voice',
  async up(db) {
    await db.schema.alterTable('projects').addColumn('voice_id', 'text').execute();
  },
};
