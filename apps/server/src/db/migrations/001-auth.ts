import { sql } from 'kysely';
import type { Migration } from './helpers.ts';
import { withId } from './helpers.ts';

export const authMigration: Migration = {
  name: '001-auth',
  async up(db, dialect) {
    await withId(db.schema.createTable('users'), dialect)
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text')
      .addColumn('notify', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('credits_available', 'integer', (c) =>
        c.notNull().defaultTo(0).check(sqlNonNegative('credits_available')),
      )
      .addColumn('credits_held', 'integer', (c) => c.notNull().defaultTo(0).check(sqlNonNegative('credits_held')))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await withId(db.schema.createTable('refresh_tokens'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('family_id', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('used_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();
    // PostgreSQL does not index foreign keys itself; deleting a user scans these without them.
    await db.schema.createIndex('refresh_tokens_user').on('refresh_tokens').column('user_id').execute();
    await withId(db.schema.createTable('identities'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('identities_provider_subject', ['provider', 'subject'])
      .execute();
    await db.schema.createIndex('identities_user').on('identities').column('user_id').execute();
  },
};

/** The balance never goes negative: the database refuses it whatever the code does. */
function sqlNonNegative(column: string) {
  return sql`${sql.ref(column)} >= 0`;
}
