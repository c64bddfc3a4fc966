import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

export const hookPacksMigration: Migration = {
  name: '004-hook-packs',
  async up(db, dialect) {
    await withId(db.schema.createTable('hook_packs'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text')
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('english'))
      .addColumn('accent', 'text', (c) => c.notNull().defaultTo('american'))
      .addColumn('message', 'text')
      .addColumn('product_details', 'text')
      .addColumn('product_key', 'text')
      .addColumn('cutout_key', 'text')
      .addColumn('mask_key', 'text')
      .addColumn('detected_shape', 'text')
      .addColumn('detected_category', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('file_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('hook_packs_user_created')
      .on('hook_packs')
      .columns(['user_id', 'created_at'])
      .execute();

    await withId(db.schema.createTable('character_types'), dialect)
      .addColumn('hook_pack_id', 'integer', (c) => c.notNull().references('hook_packs.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('order_index', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('character_types_pack').on('character_types').column('hook_pack_id').execute();

    await withId(db.schema.createTable('generated_characters'), dialect)
      .addColumn('hook_pack_id', 'integer', (c) => c.notNull().references('hook_packs.id').onDelete('cascade'))
      .addColumn('character_type_id', 'integer', (c) => c.references('character_types.id').onDelete('set null'))
      .addColumn('seed', 'text', (c) => c.notNull())
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('image_key', 'text')
      .addColumn('selected', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('job_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('generated_characters_pack')
      .on('generated_characters')
      .column('hook_pack_id')
      .execute();

    await withId(db.schema.createTable('preview_characters'), dialect)
      .addColumn('hook_pack_id', 'integer', (c) => c.notNull().references('hook_packs.id').onDelete('cascade'))
      .addColumn('generated_character_id', 'integer', (c) =>
        c.notNull().references('generated_characters.id').onDelete('cascade'),
      )
      .addColumn('image_key', 'text')
      .addColumn('errors', 'text')
      .addColumn('approved', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text')
      .addColumn('position_x', 'double precision')
      .addColumn('position_y', 'double precision')
      .addColumn('scale', 'double precision')
      .addColumn('rotation', 'double precision')
      .addColumn('mask_key', 'text')
      .addColumn('job_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('preview_characters_pack').on('preview_characters').column('hook_pack_id').execute();

    await withId(db.schema.createTable('hook_variants'), dialect)
      .addColumn('hook_pack_id', 'integer', (c) => c.notNull().references('hook_packs.id').onDelete('cascade'))
      .addColumn('variant_index', 'integer', (c) => c.notNull())
      .addColumn('generated_character_id', 'integer', (c) =>
        c.notNull().references('generated_characters.id').onDelete('cascade'),
      )
      .addColumn('hook_text', 'text', (c) => c.notNull())
      .addColumn('job_id', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('hook_variants_pack_index', ['hook_pack_id', 'variant_index'])
      .execute();
  },
};
