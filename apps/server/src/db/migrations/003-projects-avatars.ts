import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

export const projectsAvatarsMigration: Migration = {
  name: '003-projects-avatars',
  async up(db, dialect) {
    await withId(db.schema.createTable('projects'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('file_key', 'text')
      .addColumn('script', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('english'))
      .addColumn('accent', 'text', (c) => c.notNull().defaultTo('american'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('projects_user_created').on('projects').columns(['user_id', 'created_at']).execute();

    await withId(db.schema.createTable('avatars'), dialect)
      .addColumn('owner_user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('created_by_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('image_key', 'text', (c) => c.notNull())
      .addColumn('prompt', 'text')
      .addColumn('name', 'text')
      .addColumn('catalogue_actor_id', 'text', (c) => c.unique())
      .addColumn('gender', 'text')
      .addColumn('race', 'text')
      .addColumn('background', 'text')
      .addColumn('x', 'integer')
      .addColumn('y', 'integer')
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('rotation', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('corners', 'text')
      .addColumn('deleted_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('avatars_owner').on('avatars').column('owner_user_id').execute();

    await withId(db.schema.createTable('project_characters'), dialect)
      .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
      .addColumn('avatar_id', 'integer', (c) => c.notNull().references('avatars.id').onDelete('cascade'))
      .addColumn('selected', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('x', 'double precision')
      .addColumn('y', 'double precision')
      .addColumn('width', 'double precision')
      .addColumn('height', 'double precision')
      .addColumn('rotation', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('mask_placement', 'text')
      .addColumn('merge_status', 'text')
      .addColumn('merged_key', 'text')
      .addColumn('merge_job_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('project_characters_project_avatar', ['project_id', 'avatar_id'])
      .execute();
    await db.schema.createIndex('project_characters_avatar').on('project_characters').column('avatar_id').execute();
  },
};
