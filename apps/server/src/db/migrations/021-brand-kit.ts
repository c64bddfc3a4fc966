import type { Migration } from './helpers.ts';

/**
 * Brand kits (decision 133): one row per user with the logo's storage key, two colours, the caption font, the
 * default caption style and CTA, and the outro switch. Projects and hook packs get their own copy of the brand
 * look (font, colours, outro), taken from the kit when they are created; existing rows keep today's look.
 */
export const brandKitMigration: Migration = {
  name: '021-brand-kit',
  async up(db) {
    await db.schema
      .createTable('brand_kits')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('logo_key', 'text')
      .addColumn('logo_width', 'integer')
      .addColumn('logo_height', 'integer')
      .addColumn('primary_colour', 'text', (c) => c.notNull())
      .addColumn('secondary_colour', 'text', (c) => c.notNull())
      .addColumn('caption_font', 'text', (c) => c.notNull())
      .addColumn('caption_style', 'text', (c) => c.notNull())
      .addColumn('cta_text', 'text')
      .addColumn('outro', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    for (const table of ['projects', 'hook_packs']) {
      await db.schema
        .alterTable(table)
        .addColumn('caption_font', 'text', (c) => c.notNull().defaultTo('dejavu_sans'))
        .execute();
      await db.schema
        .alterTable(table)
        .addColumn('primary_colour', 'text', (c) => c.notNull().defaultTo('#FFD23F'))
        .execute();
      await db.schema
        .alterTable(table)
        .addColumn('secondary_colour', 'text', (c) => c.notNull().defaultTo('#111111'))
        .execute();
      await db.schema
        .alterTable(table)
        .addColumn('outro', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    }
  },
};
