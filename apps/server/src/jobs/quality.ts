import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { qualityVerdict, QualityLevel, type QualityReport } from '@hookreel/contracts';
import type { AppContext } from '../context.ts';

/**
 * What a video job keeps of its quality report in the row's result JSON: the verdict for cards and the storage
 * keys of the full report (JSON) and the contact sheet (JPEG). The report itself stays a file: job lists and
 * events carry only the verdict.
 */
export interface VideoQualityResult {
  quality: QualityLevel;
  report_key: string;
  contact_sheet_key: string | null;
}

/** Stores the report and contact sheet under the job's deterministic keys (a retry overwrites them). */
export async function storeQuality(
  files: AppContext['files'],
  out: { report?: QualityReport | null; contactSheetPath?: string | null },
  keyOf: (fileName: string) => string,
  workDir: string,
): Promise<VideoQualityResult | null> {
  if (!out.report) return null;
  const local = path.join(workDir, 'quality-report.json');
  await writeFile(local, JSON.stringify(out.report));
  const reportKey = keyOf('report.json');
  await files.putFile(reportKey, local, 'application/json');
  let sheetKey: string | null = null;
  if (out.contactSheetPath) {
    sheetKey = keyOf('contact-sheet.jpg');
    await files.putFile(sheetKey, out.contactSheetPath, 'image/jpeg');
  }
  return { quality: qualityVerdict(out.report), report_key: reportKey, contact_sheet_key: sheetKey };
}

/** The quality fields of a job row's result JSON, for the job DTO. */
export function qualityOfResult(result: string | null): {
  quality: QualityLevel | null;
  report_url: string | null;
  contact_sheet_url: string | null;
} {
  const none = { quality: null, report_url: null, contact_sheet_url: null };
  if (!result) return none;
  let v: unknown;
  try {
    v = JSON.parse(result);
  } catch {
    return none;
  }
  if (!v || typeof v !== 'object') return none;
  const r = v as Record<string, unknown>;
  const level = QualityLevel.safeParse(r.quality);
  const key = (k: unknown) => (typeof k === 'string' && k ? `static/${k}` : null);
  return {
    quality: level.success ? level.data : null,
    report_url: key(r.report_key),
    contact_sheet_url: key(r.contact_sheet_key),
  };
}

/** The job's last log line: the video is ready, and how its checks went. */
export function qualityLine(q: VideoQualityResult | null): string {
  if (!q) return 'Video ready';
  return q.quality === 'pass'
    ? 'Video ready: every quality check passed'
    : q.quality === 'warn'
      ? 'Video ready: some quality checks need a look'
      : 'Video ready: a quality check failed';
}
