/**
 * The manifest's `real_photo` and `ai_label` cells (decision 201): whether the video animates a real person's
 * photo and whether it shows the visible "AI-generated" label, as its render recorded; empty for videos made
 * before renders recorded it. Every video is marked AI-made in its metadata either way.
 */
export function aiColumns(result: string | null): [string, string] {
  const cell = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : '');
  if (!result) return ['', ''];
  try {
    const r = JSON.parse(result) as { real_photo?: unknown; ai_label?: unknown };
    return [cell(r.real_photo), cell(r.ai_label)];
  } catch {
    return ['', ''];
  }
}
