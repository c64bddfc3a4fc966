import type { HookPackRow } from '../db/repositories/hook-packs.ts';

type PackKeyParts = Pick<HookPackRow, 'user_id' | 'id' | 'file_token'>;

/** Storage prefix of a pack's files: deterministic (a retry overwrites) and unguessable (capability URLs). */
export const packFilePrefix = (pack: PackKeyParts): string =>
  `users/${pack.user_id}/hook-packs/${pack.id}-${pack.file_token}`;

export const variantFileKey = (pack: PackKeyParts, index: number, ext: string): string =>
  `${packFilePrefix(pack)}/variant-${index}.${ext}`;
