import { createHash, randomBytes } from 'node:crypto';
import {
  API_KEY_PREFIX,
  INTEGRATION_LIMITS,
  INTEGRATION_MESSAGES,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { apiKeysRepository, type ApiKeyRow } from '../../db/repositories/api-keys.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import { conflict, notFound } from '../../errors.ts';
import { adminBySession, auditAdmin } from '../account/index.ts';

/**
 * Personal API keys (decision 131). A key is `hrk_` and 32 random bytes; only its SHA-256 is stored, which is
 * enough for a secret with 256 bits of entropy (no dictionary to guess from, so no slow hash is needed), and
 * keeps the check cheap on every request.
 */

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');
/** How often last_used_at is written for a busy key: once a minute is precise enough and spares the database. */
const TOUCH_EVERY_MS = 60_000;

const toDto = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scope: r.scope,
  created_at: r.created_at,
  last_used_at: r.last_used_at,
});

export const isApiKey = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

export async function listApiKeys(ctx: AppContext, userId: number): Promise<ApiKey[]> {
  return (await apiKeysRepository.listActive(ctx.db.kysely, userId)).map(toDto);
}

export async function createApiKey(
  ctx: AppContext,
  userId: number,
  name: string,
  scope: ApiKeyScope = 'user',
): Promise<CreatedApiKey> {
  // An admin key is made on purpose by an administrator, and the making is in the audit log.
  const admin =
    scope === 'admin' ? await adminBySession(ctx, userId, INTEGRATION_MESSAGES.adminKeyOnlyForAdmins) : null;
  const created = await ctx.db.kysely.transaction().execute(async (trx) => {
    if ((await apiKeysRepository.countActive(trx, userId)) >= INTEGRATION_LIMITS.apiKeysPerUser) {
      throw conflict(INTEGRATION_MESSAGES.apiKeysLimit);
    }
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const row = await apiKeysRepository.insert(trx, {
      userId,
      name,
      prefix: key.slice(0, API_KEY_PREFIX.length + 8),
      keyHash: hashKey(key),
      scope,
    });
    return { ...toDto(row), key };
  });
  if (admin) await auditAdmin(ctx, admin, 'api_key.create_admin', { target: `api_key:${created.id}`, name });
  return created;
}

export async function revokeApiKey(ctx: AppContext, userId: number, id: number): Promise<void> {
  if (!(await apiKeysRepository.revoke(ctx.db.kysely, userId, id))) throw notFound();
}

/**
 * The key's owner and id when `token` is a key that works: not revoked, its account still there, and made after
 * the account's sessions were last ended (ending every session ends the keys made before it too). Records when
 * the key was last used.
 */
export async function authenticateApiKey(
  ctx: AppContext,
  token: string,
): Promise<{ userId: number; keyId: number; scope: ApiKeyScope } | null> {
  const db = ctx.db.kysely;
  const row = await apiKeysRepository.findActiveByHash(db, hashKey(token));
  if (!row) return null;
  const user = await usersRepository.findById(db, row.user_id);
  if (!user) return null;
  if (user.sessions_revoked_at && Date.parse(row.created_at) <= Date.parse(user.sessions_revoked_at)) return null;
  const at = Date.now();
  if (!row.last_used_at || at - Date.parse(row.last_used_at) >= TOUCH_EVERY_MS) {
    await apiKeysRepository.touch(db, row.id, new Date(at).toISOString());
  }
  return { userId: row.user_id, keyId: row.id, scope: row.scope };
}
