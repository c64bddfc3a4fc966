import { z } from 'zod';
/** What a render records of its AI marks in the job's result (absent in results from before decision 201). */
const Mark = z.boolean().optional().catch(undefined);
const RecordedLabels = z.object({ real_photo: Mark, ai_label: Mark });

/**
 * The manifest's `real_photo` and `ai_label` cells (decision 201): whether the video animates a real person's
 * photo and whether it shows the visible "AI-generated" label, as its render recorded; empty for videos made
 * before renders recorded it. Every video is marked AI-made in its metadata either way.
 */
export function aiColumns(result: string | null): [string, string] {
  const cell = (v: boolean | undefined) => (v === true ? 'yes' : v === false ? 'no' : '');
  if (!result) return ['', ''];
  try {
    const r = RecordedLabels.safeParse(JSON.parse(result));
    return r.success ? [cell(r.data.real_photo), cell(r.data.ai_label)] : ['', ''];
  } catch {
    return ['', ''];
  }
}
