import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  Aspect,
  ASPECT_SIZES,
  aspectTag,
  DEFAULT_ASPECT,
  qualityVerdict,
  QualityLevel,
  type JobAspectVideo,
  type QualityReport,
} from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import type { AspectRender } from '../../media/port.ts';

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

/** An extra frame shape of a job as its result JSON keeps it: storage keys and the verdict. */
export interface StoredAspect {
  aspect: Aspect;
  video_key: string;
  poster_key: string | null;
  report_key: string | null;
  contact_sheet_key: string | null;
  quality: QualityLevel | null;
}

/**
 * Stores each extra shape's video, poster, report and contact sheet under the job's deterministic keys, named by
 * the shape's tag ('video-4x5.mp4', 'report-4x5.json'), so a retry overwrites them.
 */
export async function storeAspects(
  files: AppContext['files'],
  renders: readonly AspectRender[] | undefined,
  keyOf: (fileName: string) => string,
  workDir: string,
): Promise<StoredAspect[]> {
  const stored: StoredAspect[] = [];
  for (const r of renders ?? []) {
    if (r.aspect === DEFAULT_ASPECT) continue;
    const tag = aspectTag(r.aspect);
    const videoKey = keyOf(`video-${tag}.mp4`);
    await files.putFile(videoKey, r.videoPath, 'video/mp4');
    let posterKey: string | null = null;
    if (r.posterPath) {
      posterKey = keyOf(`poster-${tag}.jpg`);
      await files.putFile(posterKey, r.posterPath, 'image/jpeg');
    }
    let reportKey: string | null = null;
    if (r.report) {
      const local = path.join(workDir, `quality-report-${tag}.json`);
      await writeFile(local, JSON.stringify(r.report));
      reportKey = keyOf(`report-${tag}.json`);
      await files.putFile(reportKey, local, 'application/json');
    }
    let sheetKey: string | null = null;
    if (r.contactSheetPath) {
      sheetKey = keyOf(`contact-sheet-${tag}.jpg`);
      await files.putFile(sheetKey, r.contactSheetPath, 'image/jpeg');
    }
    stored.push({
      aspect: r.aspect,
      video_key: videoKey,
      poster_key: posterKey,
      report_key: reportKey,
      contact_sheet_key: sheetKey,
      quality: r.report ? qualityVerdict(r.report) : null,
    });
  }
  return stored;
}

/** The extra shapes kept in a job row's result JSON (none for older jobs or unreadable results). */
export function storedAspectsOf(result: string | null): StoredAspect[] {
  if (!result) return [];
  let v: unknown;
  try {
    v = JSON.parse(result);
  } catch {
    return [];
  }
  const list = v && typeof v === 'object' ? (v as { aspects?: unknown }).aspects : null;
  if (!Array.isArray(list)) return [];
  const str = (x: unknown) => (typeof x === 'string' && x ? x : null);
  return list.flatMap((item: unknown): StoredAspect[] => {
    if (!item || typeof item !== 'object') return [];
    const r = item as Record<string, unknown>;
    const aspect = Aspect.safeParse(r.aspect);
    const videoKey = str(r.video_key);
    if (!aspect.success || aspect.data === DEFAULT_ASPECT || !videoKey) return [];
    const level = QualityLevel.safeParse(r.quality);
    return [
      {
        aspect: aspect.data,
        video_key: videoKey,
        poster_key: str(r.poster_key),
        report_key: str(r.report_key),
        contact_sheet_key: str(r.contact_sheet_key),
        quality: level.success ? level.data : null,
      },
    ];
  });
}

/**
 * Every shape of a finished job for its DTO: the master (9:16, the job's own video and report) first, then the
 * extra shapes; `downloadName(aspect)` names each file.
 */
export function jobAspectVideos(
  row: { video_key: string | null; poster_key: string | null; result: string | null },
  downloadName: (aspect: Aspect) => string,
): JobAspectVideo[] {
  if (!row.video_key) return [];
  const url = (key: string | null) => (key ? `static/${key}` : null);
  const master = qualityOfResult(row.result);
  const all: StoredAspect[] = [
    {
      aspect: DEFAULT_ASPECT,
      video_key: row.video_key,
      poster_key: row.poster_key,
      report_key: null,
      contact_sheet_key: null,
      quality: master.quality,
    },
    ...storedAspectsOf(row.result),
  ];
  return all.map((a) => ({
    aspect: a.aspect,
    ...ASPECT_SIZES[a.aspect],
    video_url: `static/${a.video_key}`,
    poster_url: url(a.poster_key),
    download_url: `static/${a.video_key}?download=${downloadName(a.aspect)}`,
    quality: a.quality,
    report_url: a.aspect === DEFAULT_ASPECT ? master.report_url : url(a.report_key),
    contact_sheet_url: a.aspect === DEFAULT_ASPECT ? master.contact_sheet_url : url(a.contact_sheet_key),
  }));
}
