import { PhotoFace } from '@hookreel/contracts';
import type { AvatarRow } from '../../db/repositories/avatars.ts';

/** A stored avatar's face, or null (drawn actors, older uploads, or JSON this version cannot read). */
export function avatarFace(row: Pick<AvatarRow, 'face_json'> | null | undefined): PhotoFace | null {
  if (!row?.face_json) return null;
  try {
    const parsed = PhotoFace.safeParse(JSON.parse(row.face_json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
