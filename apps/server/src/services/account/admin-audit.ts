import { INTEGRATION_MESSAGES, type ApiKeyScope } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { adminAuditRepository } from '../../db/repositories/admin-audit.ts';
import { usersRepository } from '../../db/repositories/users.ts';
import { forbidden } from '../../errors.ts';
import { isAdminRow } from './users.ts';

/** Who sent a request: the account, and the API key (with its scope) when it came with one instead of a session. */
export interface Caller {
  userId: number;
  apiKeyId?: number | undefined;
  apiKeyScope?: ApiKeyScope | undefined;
}

/** An administrator allowed to act, and the credential they act with (for the audit log). */
export interface AdminActor {
  userId: number;
  email: string;
  credential: 'session' | 'api_key' | 'cli';
  apiKeyId: number | null;
}

/** The shell (`npm run credits`): whoever can reach the database; logged under the system user's name. */
export const cliActor = (by: string): AdminActor => ({ userId: 0, email: by, credential: 'cli', apiKeyId: null });

async function adminRow(ctx: Pick<AppContext, 'db' | 'config'>, userId: number) {
  if (ctx.config.adminEmails.size === 0) return null;
  const user = await usersRepository.findById(ctx.db.kysely, userId);
  return user && isAdminRow(ctx, user) ? user : null;
}

/**
 * The caller as an administrator, or 403. Administrators are the verified ADMIN_EMAILS addresses; with an API key,
 * only a key an administrator made admin-scoped on purpose counts (decision 175), so a leaked everyday key of an
 * administrator cannot grant credits.
 */
export async function requireAdmin(ctx: Pick<AppContext, 'db' | 'config'>, caller: Caller): Promise<AdminActor> {
  const user = await adminRow(ctx, caller.userId);
  if (!user) throw forbidden();
  if (caller.apiKeyId !== undefined) {
    if (caller.apiKeyScope !== 'admin') throw forbidden(INTEGRATION_MESSAGES.apiKeyNotAdmin);
    return { userId: user.id, email: user.email, credential: 'api_key', apiKeyId: caller.apiKeyId };
  }
  return { userId: user.id, email: user.email, credential: 'session', apiKeyId: null };
}

/** An administrator signed in with a session (the routes that make keys take no key), or 403 with `message`. */
export async function adminBySession(
  ctx: Pick<AppContext, 'db' | 'config'>,
  userId: number,
  message?: string,
): Promise<AdminActor> {
  const user = await adminRow(ctx, userId);
  if (!user) throw forbidden(message);
  return { userId: user.id, email: user.email, credential: 'session', apiKeyId: null };
}

/** Writes what an administrator did, with whom and with which credential, to the admin_audit table. */
export async function auditAdmin(
  ctx: Pick<AppContext, 'db'>,
  actor: AdminActor,
  action: string,
  detail: { target?: string; [key: string]: unknown } = {},
): Promise<void> {
  const { target, ...rest } = detail;
  await adminAuditRepository.append(ctx.db.kysely, {
    userId: actor.userId,
    userEmail: actor.email,
    credential: actor.credential,
    apiKeyId: actor.apiKeyId,
    action,
    target: target ?? null,
    detail: Object.keys(rest).length > 0 ? JSON.stringify(rest) : null,
  });
}

/** Checks the caller is an administrator, runs the action, then logs it (a refused or failed action logs nothing). */
export async function asAdmin<T>(
  ctx: Pick<AppContext, 'db' | 'config'>,
  caller: Caller,
  action: string,
  detail: { target?: string; [key: string]: unknown },
  run: (actor: AdminActor) => Promise<T>,
): Promise<T> {
  const actor = await requireAdmin(ctx, caller);
  const result = await run(actor);
  await auditAdmin(ctx, actor, action, detail);
  return result;
}
