import { parseEbur128 } from '../report/ebur128.ts';
import { produceAtomic } from '../util/files.ts';
import { FFMPEG, ONE_FILTER_THREAD } from '../util/media.ts';
import { runProcess } from '../util/process.ts';

/** Social platforms play at about −14 LUFS and expect true peaks at most −1 dBTP. */
export const TARGET_LUFS = -14;
export const TARGET_TRUE_PEAK = -1;
export const AUDIO_RATE = 48000;

export interface AudioInput {
  voicePath: string;
  /** A music bed to loop or trim to the length and duck under the voice; none by default. */
  musicPath?: string | null;
  durationSec: number;
  outPath: string;
  signal?: AbortSignal;
}

/**
 * The mix before normalisation: voice as 48 kHz stereo, padded to the video length; with a music bed, the bed is
 * levelled, faded out at the end and ducked under the voice (sidechain compression keyed by the voice).
 */
function mixGraph(hasMusic: boolean, durationSec: number): string {
  const d = durationSec.toFixed(3);
  const voice = `[0:a]aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,apad=whole_dur=${d}`;
  if (!hasMusic) return `${voice}[mix]`;
  const fadeStart = Math.max(0, durationSec - 1).toFixed(3);
  return [
    `${voice},asplit=2[voice][key]`,
    `[1:a]aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,atrim=0:${d},asetpts=N/SR/TB,` +
      `loudnorm=I=-30:TP=-6:LRA=11,aresample=${AUDIO_RATE},aformat=sample_fmts=fltp:channel_layouts=stereo,afade=t=out:st=${fadeStart}:d=1[bed]`,
    `[bed][key]sidechaincompress=threshold=0.02:ratio=10:attack=15:release=350:makeup=1[ducked]`,
    `[voice][ducked]amix=inputs=2:duration=first:normalize=0[mix]`,
  ].join(';');
}

/**
 * Two-pass normalisation to −14 LUFS integrated: the first pass measures the mix with ffmpeg's EBU R128 meter,
 * the second applies that one gain and a brick-wall limiter 2 dB under full scale, so speech peaks (which a
 * −14 LUFS voice would push over 0 dBFS) stay under −1 dBTP. We do not use loudnorm's linear mode: it falls
 * back to its dynamic mode on clips shorter than about 3 s, which many hooks are, and lands far off target.
 * If the limiter pulled the level down, a final small gain brings it back (the limiter has already taken the
 * peaks, so this gain is tiny). Writes the limited track (48 kHz stereo 16-bit WAV of exactly the video's length)
 * to `outPath` and returns that final gain: the encode applies it (`RenderInput.audioGainDb`) as it reads the
 * track, instead of a third ffmpeg run rewriting the WAV (decision 094).
 */
export async function prepareAudio(input: AudioInput): Promise<{ gainDb: number }> {
  const inputs = ['-i', input.voicePath];
  if (input.musicPath) inputs.push('-stream_loop', '-1', '-i', input.musicPath);
  const graph = mixGraph(Boolean(input.musicPath), input.durationSec);
  const base = ['-hide_banner', '-nostats', '-protocol_whitelist', 'file,pipe', ...ONE_FILTER_THREAD];
  const first = await measure(
    [...base, ...inputs, '-filter_complex', `${graph};[mix]ebur128=peak=true[out]`, '-map', '[out]'],
    input.signal,
  );
  const gain = levelGain(first.integrated);
  const second = await produceAtomic(input.outPath, (tmp) =>
    measure(
      [
        ...base,
        ...inputs,
        '-filter_complex',
        `${graph};[mix]${levelFilter(gain)},asplit=2[out][meter];[meter]ebur128=peak=true[m]`,
        '-map',
        '[out]',
        '-t',
        input.durationSec.toFixed(3),
        '-c:a',
        'pcm_s16le',
        '-f',
        'wav',
        '-y',
        tmp,
        '-map',
        '[m]',
      ],
      input.signal,
    ),
  );
  return { gainDb: finalTrim(second) };
}

/** The first pass's gain: what takes a track measured at `integrated` LUFS to the target (none for silence). */
export const levelGain = (integrated: number | null): number =>
  integrated === null ? 0 : Math.max(-20, Math.min(40, TARGET_LUFS - integrated));

/** The second pass: that gain, then the brick-wall limiter, back at 48 kHz (the limiter oversamples). */
export const levelFilter = (gainDb: number): string =>
  `volume=${gainDb.toFixed(2)}dB,alimiter=limit=${LIMIT_LINEAR}:attack=3:release=60:level=disabled,aresample=${AUDIO_RATE}`;

/**
 * The final gain the encode applies, from the meter on the limited track: closes the gap the limiter left (or
 * lowers what a first pass measured a little low), without raising the peaks past the ceiling.
 */
export function finalTrim(limited: { integrated: number | null; truePeak: number | null }): number {
  let trim = limited.integrated === null ? 0 : TARGET_LUFS - limited.integrated;
  if (limited.truePeak !== null) trim = Math.min(trim, TARGET_TRUE_PEAK - 0.3 - limited.truePeak);
  return Math.max(-6, trim);
}

/** −2 dBFS sample ceiling: with 48 kHz speech the inter-sample peaks stay below −1 dBTP. */
const LIMIT_LINEAR = Math.pow(10, -2 / 20).toFixed(4);

async function measure(args: string[], signal?: AbortSignal) {
  const { stderr } = await runProcess(FFMPEG, [...args, '-f', 'null', '-'], { signal, timeoutMs: 120_000 });
  return parseEbur128(stderr);
}
