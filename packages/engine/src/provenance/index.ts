import { ExifTool } from 'exiftool-vendored';

/**
 * Machine-readable provenance of a finished video (decision 201): XMP written into the MP4 by ExifTool (the
 * maintained Perl library, vendored by `exiftool-vendored`), read back the same way. It says the video was made
 * by a trained algorithm (IPTC DigitalSourceType), by which software, when, and whether a real person's photo
 * was animated. Platforms read DigitalSourceType to put their own "AI-generated" label on an upload.
 */

/** IPTC's term for media made by a trained model (https://cv.iptc.org/newscodes/digitalsourcetype/). */
export const TRAINED_ALGORITHMIC_MEDIA = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
export const PROVENANCE_SOFTWARE = 'Hookreel';
/** Keywords (XMP dc:subject) a reader can match without parsing the description. */
export const AI_KEYWORD = 'ai-generated';
export const REAL_PHOTO_KEYWORD = 'real-person-photo-animated';

export interface Provenance {
  /** A real person's photo (an uploaded actor) was animated, rather than a drawn or generated face. */
  realPersonPhoto: boolean;
  /** When the video was made; now when omitted. */
  createdAt?: Date;
}

export interface ReadProvenance {
  digitalSourceType: string | null;
  software: string | null;
  /** ISO 8601, as written. */
  createdAt: string | null;
  description: string | null;
  realPersonPhoto: boolean;
  keywords: string[];
}

/** The sentence a person sees in a file's "description" field. */
export function provenanceDescription(p: Pick<Provenance, 'realPersonPhoto'>): string {
  return p.realPersonPhoto
    ? `AI-generated with ${PROVENANCE_SOFTWARE}: a real person's photo, used with their consent, animated to speak a script.`
    : `AI-generated with ${PROVENANCE_SOFTWARE}: a synthetic actor speaking a script.`;
}

// One ExifTool (Perl) process shared by every write and read, started on first use: starting Perl and ExifTool
// costs about 0.2 s of CPU, which per video was most of the report step. It ends after a short idle time, and its
// streams are unreferenced, so it never keeps a script or a test run alive.
let shared: ExifTool | null = null;

async function withExifTool<T>(run: (et: ExifTool) => Promise<T>): Promise<T> {
  shared ??= new ExifTool({ maxProcs: 1, taskTimeoutMillis: 30_000, maxIdleMsPerProcess: 20_000 });
  return run(shared);
}

/** Ends the shared ExifTool process (benches end it to count its CPU; nothing else needs to). */
export async function closeProvenanceTool(): Promise<void> {
  const et = shared;
  shared = null;
  await et?.end();
}

/** Writes the provenance into the MP4 in place (ExifTool writes a copy and renames it over the original). */
export async function writeProvenance(videoPath: string, p: Provenance): Promise<void> {
  const createdAt = (p.createdAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const keywords = p.realPersonPhoto ? [AI_KEYWORD, REAL_PHOTO_KEYWORD] : [AI_KEYWORD];
  await withExifTool((et) =>
    et.write(
      videoPath,
      {
        'XMP-iptcExt:DigitalSourceType': TRAINED_ALGORITHMIC_MEDIA,
        'XMP-xmp:CreatorTool': PROVENANCE_SOFTWARE,
        'XMP-xmp:CreateDate': createdAt,
        'XMP-dc:Description': provenanceDescription(p),
        'XMP-dc:Subject': keywords,
        // The tag names are ExifTool's group-qualified ones, which its typed Tags interface does not list.
      } as Record<string, unknown> as never,
      { writeArgs: ['-overwrite_original'] },
    ),
  );
}

/** The provenance found in a video, or null when it carries none. */
export async function readProvenance(videoPath: string): Promise<ReadProvenance | null> {
  const tags = await withExifTool(
    (et) => et.read(videoPath, { readArgs: ['-xmp:all', '-G1'] }) as Promise<Record<string, unknown>>,
  );
  const text = (key: string): string | null => {
    const v = tags[key];
    if (v === undefined || v === null) return null;
    if (typeof v === 'object' && 'rawValue' in v) return String((v as { rawValue: unknown }).rawValue);
    return String(v);
  };
  const source = text('XMP-iptcExt:DigitalSourceType');
  if (!source && !text('XMP-xmp:CreatorTool')) return null;
  const subject = tags['XMP-dc:Subject'];
  const keywords = (Array.isArray(subject) ? subject : subject ? [subject] : []).map(String);
  return {
    digitalSourceType: source,
    software: text('XMP-xmp:CreatorTool'),
    createdAt: text('XMP-xmp:CreateDate'),
    description: text('XMP-dc:Description'),
    realPersonPhoto: keywords.includes(REAL_PHOTO_KEYWORD),
    keywords,
  };
}
