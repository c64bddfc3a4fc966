import type { Insertable, Selectable } from 'kysely';
import { type Executor, firstOrNull, now } from '../database.ts';
import type { BrandKitsTable } from '../tables/brand-kits.ts';

export type BrandKitRow = Selectable<BrandKitsTable>;
export type BrandKitValues = Omit<Insertable<BrandKitsTable>, 'user_id' | 'updated_at'>;

/** One brand kit per user, keyed by the user id (so every read and write is the owner's own). */
export const brandKitsRepository = {
  async find(db: Executor, userId: number): Promise<BrandKitRow | null> {
    return firstOrNull(db.selectFrom('brand_kits').selectAll().where('user_id', '=', userId));
  },

  /** Writes the whole kit (insert or replace) and returns it. */
  async upsert(db: Executor, userId: number, values: BrandKitValues): Promise<BrandKitRow> {
    const row = { ...values, updated_at: now() };
    return db
      .insertInto('brand_kits')
      .values({ user_id: userId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};
