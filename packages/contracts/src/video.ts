import { z } from 'zod';
import { VoiceId } from './voices.ts';

/**
 * How spoken words appear on screen (docs/video-design.md#caption-styles). Chosen per project and per hook pack;
 * `highlight` (word-by-word highlight) is the default.
 */
export const CAPTION_STYLES = ['highlight', 'pop', 'boxed', 'lower_third'] as const;
export const CaptionStyle = z.enum(CAPTION_STYLES);
export type CaptionStyle = z.infer<typeof CaptionStyle>;
export const DEFAULT_CAPTION_STYLE: CaptionStyle = 'highlight';
export const CAPTION_STYLE_LABELS: Record<CaptionStyle, string> = {
  highlight: 'Word highlight',
  pop: 'One word pop',
  boxed: 'Boxed lines',
  lower_third: 'Lower third',
};

/** The optional music bed a user uploads (MP3, WAV or M4A), checked by its bytes and by ffprobe on the server. */
export const MUSIC_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  maxDurationSec: 600,
  accept: 'audio/mpeg,audio/wav,audio/x-wav,audio/mp4,audio/x-m4a,.mp3,.wav,.m4a',
} as const;

/**
 * A project's own voice-over: a recording the user uploads to be the voice instead of a generated one (MP3, WAV or
 * M4A, checked like the music bed). The video is as long as the recording, so its length is capped: two minutes is
 * far past any short ad and keeps the word alignment's work bounded.
 */
export const VOICE_OVER_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  minDurationSec: 1,
  maxDurationSec: 120,
  accept: MUSIC_LIMITS.accept,
} as const;

/** Who speaks a project's script: the generated voice (language, accent, speed) or the user's own recording. */
export const VOICE_SOURCES = ['generated', 'own'] as const;
export const VoiceSource = z.enum(VOICE_SOURCES);
export type VoiceSource = z.infer<typeof VoiceSource>;
export const VOICE_SOURCE_LABELS: Record<VoiceSource, string> = {
  generated: 'Generated voice',
  own: 'My own recording',
};
/** The uploaded recording as the API shows it. */
export const VoiceOver = z.object({ url: z.string(), duration_sec: z.number() });
export type VoiceOver = z.infer<typeof VoiceOver>;

/** The call to action on the optional end card (last 1.5 s: product image + this line). */
export const CTA_MAX = 40;
export const CtaText = z
  .string()
  .trim()
  .max(CTA_MAX, `The call to action must be at most ${CTA_MAX} characters`)
  .nullable()
  .transform((v) => (v ? v : null));

/**
 * How a video is made (docs/providers.md#draft-and-realistic-what-a-video-costs-at-list-prices): `draft` is the
 * local engine (always available, the default), `realistic` goes through the configured providers.
 */
export const VIDEO_QUALITIES = ['draft', 'realistic'] as const;
export const VideoQuality = z.enum(VIDEO_QUALITIES);
export type VideoQuality = z.infer<typeof VideoQuality>;
export const DEFAULT_VIDEO_QUALITY: VideoQuality = 'draft';
export const VIDEO_QUALITY_LABELS: Record<VideoQuality, { name: string; hint: string }> = {
  draft: { name: 'Draft', hint: 'Made on our servers: an illustrated actor or your photo animated, synthetic voice.' },
  realistic: { name: 'Realistic', hint: 'Photoreal actor holding the product, natural voice, matching lips.' },
};

/** The voice's speaking rate a project or pack may choose (1 = normal), in steps of 0.05. */
export const VOICE_SPEED = { min: 0.8, max: 1.2, step: 0.05, default: 1 } as const;
export const VoiceSpeed = z
  .number()
  .min(VOICE_SPEED.min, `The voice speed must be between ${VOICE_SPEED.min}x and ${VOICE_SPEED.max}x`)
  .max(VOICE_SPEED.max, `The voice speed must be between ${VOICE_SPEED.min}x and ${VOICE_SPEED.max}x`)
  .transform((v) => Math.round(v * 100) / 100);

/**
 * The frame shapes a render can be exported in (docs/video-design.md): 9:16 for stories and reels, 4:5 for feeds,
 * 1:1 for square placements. 9:16 is the default and is always made; the others are extra exports of one job.
 */
export const ASPECTS = ['9:16', '4:5', '1:1'] as const;
export const Aspect = z.enum(ASPECTS);
export type Aspect = z.infer<typeof Aspect>;
export const DEFAULT_ASPECT: Aspect = '9:16';
export const ASPECT_SIZES: Record<Aspect, { width: number; height: number }> = {
  '9:16': { width: 720, height: 1280 },
  '4:5': { width: 864, height: 1080 },
  '1:1': { width: 1080, height: 1080 },
};
/** ASCII-safe tag for file names and zip folders ('9x16'). */
export const aspectTag = (aspect: Aspect): string => aspect.replace(':', 'x');

/**
 * The shapes a project or pack exports, as stored and sent: 9:16 always (added when missing), each shape once, in
 * the order of ASPECTS. The extra shapes are re-compositions of the 9:16 render (docs/video-design.md#aspects).
 */
export const AspectList = z
  .array(Aspect)
  .max(ASPECTS.length, `Pick at most ${ASPECTS.length} frame shapes`)
  .transform((list): Aspect[] => ASPECTS.filter((a) => a === DEFAULT_ASPECT || list.includes(a)));
/** A stored list ('9:16,1:1') read back; anything unreadable is dropped, 9:16 always kept. */
export const parseAspects = (stored: string | null | undefined): Aspect[] =>
  ASPECTS.filter((a) => a === DEFAULT_ASPECT || (stored ?? '').split(',').includes(a));
export const ASPECT_LABELS: Record<Aspect, { name: string; hint: string }> = {
  '9:16': { name: '9:16', hint: 'Reels, TikTok, Shorts, Stories' },
  '4:5': { name: '4:5', hint: 'Instagram and Facebook feed' },
  '1:1': { name: '1:1', hint: 'Square feed placements' },
};

/** How a project's or hook pack's videos look and sound, beside the script. */
export const VideoStyleFields = z.object({
  /** Draft (local engine) or Realistic (providers): what its next videos are made with. */
  quality: VideoQuality,
  /** Speaking rate, 0.8–1.2. */
  voice_speed: z.number(),
  /** The voice chosen (GET /api/voices); null: the best for the language, accent and actor's gender. */
  voice_id: VoiceId.nullable(),
  caption_style: CaptionStyle,
  /** End card line; null for no end card. */
  cta_text: z.string().nullable(),
  /** The uploaded music bed (`static/...`), or null for none. */
  music_url: z.string().nullable(),
  /** Frame shapes each video is exported in: 9:16 always, 4:5 and 1:1 when chosen. */
  aspects: z.array(Aspect),
});
export const UpdateVideoStyleFields = z.object({
  caption_style: CaptionStyle,
  cta_text: CtaText,
  quality: VideoQuality,
  voice_speed: VoiceSpeed,
  voice_id: VoiceId.nullable(),
  aspects: AspectList,
});

export const Box = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
export type Box = z.infer<typeof Box>;

export const QualityLevel = z.enum(['pass', 'warn', 'fail']);
export type QualityLevel = z.infer<typeof QualityLevel>;

/** One line of the report as the job screen shows it (green pass, amber warn, red fail). */
export const QualityCheck = z.object({
  id: z.string(),
  label: z.string(),
  level: QualityLevel,
  detail: z.string(),
});
export type QualityCheck = z.infer<typeof QualityCheck>;

/**
 * What the engine measured on a finished video (docs/video-design.md#quality-report). `checks` is the verdict;
 * the other fields are the measurements behind it.
 */
export const QualityReport = z.object({
  version: z.literal(1),
  width: z.number().int(),
  height: z.number().int(),
  sar: z.string(),
  duration_sec: z.number(),
  integrated_lufs: z.number().nullable(),
  true_peak_dbtp: z.number().nullable(),
  sample_rate: z.number().int().nullable(),
  channels: z.number().int().nullable(),
  av_drift_ms: z.number(),
  boxes: z.array(z.object({ name: z.string(), box: Box, start_sec: z.number(), end_sec: z.number() })),
  overlaps: z.array(z.object({ text: z.string(), covers: z.string(), area: z.number() })),
  safe_zone_violations: z.array(z.object({ name: z.string(), box: Box })),
  mouth: z.object({ speech_motion: z.number(), silence_motion: z.number(), present: z.boolean() }).nullable(),
  checks: z.array(QualityCheck),
});
export type QualityReport = z.infer<typeof QualityReport>;

/** The worst level of a report's checks: what a job card's badge shows. */
export function qualityVerdict(report: Pick<QualityReport, 'checks'>): QualityLevel {
  if (report.checks.some((c) => c.level === 'fail')) return 'fail';
  if (report.checks.some((c) => c.level === 'warn')) return 'warn';
  return 'pass';
}
