import type { HookPackRow } from '../../db/repositories/hook-packs.ts';

type PackKeyParts = Pick<HookPackRow, 'user_id' | 'id' | 'file_token'>;

/** Storage prefix of a pack's files: deterministic (a retry overwrites) and unguessable (capability URLs). */
export const packFilePrefix = (pack: PackKeyParts): string =>
  `users/${pack.user_id}/hook-packs/${pack.id}-${pack.file_token}`;

/**
 * A pack video's files. `tag` names another render of the same video (a "Make realistic" upgrade), which must not
 * overwrite the draft's files while it renders: the draft stays whole if the upgrade fails.
 */
export const variantFileKey = (pack: PackKeyParts, index: number, ext: string, tag?: string): string =>
  `${packFilePrefix(pack)}/variant-${index}${tag ? `-${tag}` : ''}.${ext}`;
