import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';

/**
 * A product photo as a shopper would upload it: a coloured bottle with a cap and a label on a white background,
 * drawn with sharp and written to a temp file. Returns the file's path.
 */
export async function productPhotoFile(colour = '#1f7a4d', name = 'bottle.png'): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800">
    <rect width="600" height="800" fill="#ffffff"/>
    <rect x="215" y="230" width="170" height="470" rx="36" fill="${colour}"/>
    <rect x="255" y="140" width="90" height="100" rx="10" fill="#2b2b2b"/>
    <rect x="235" y="380" width="130" height="110" rx="6" fill="#f4ead5"/>
  </svg>`;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'hookreel-product-')), name);
  writeFileSync(file, await sharp(Buffer.from(svg)).png().toBuffer());
  return file;
}

/**
 * Tops up a user's credits in the e2e server's database, as a paid plan would (the app has no real payments).
 * A new account's free grant does not cover a 12-video pack. Writes the balance and its ledger entry together.
 */
export function grantCredits(email: string, credits: number): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set');
  const db = new Database(path.join(dataDir, 'hookreel.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const amount = Math.round(credits * 100);
    const now = new Date().toISOString();
    db.transaction(() => {
      const user = db.prepare('SELECT id FROM users WHERE lower(email) = lower(?)').get(email) as
        { id: number } | undefined;
      if (!user) throw new Error(`no user ${email}`);
      db.prepare('UPDATE users SET credits_available = credits_available + ?, updated_at = ? WHERE id = ?').run(
        amount,
        now,
        user.id,
      );
      db.prepare(
        "INSERT INTO credit_entries (user_id, kind, amount, hold_id, reason, created_at) VALUES (?, 'grant', ?, NULL, ?, ?)",
      ).run(user.id, amount, 'e2e top-up', now);
    })();
  } finally {
    db.close();
  }
}
