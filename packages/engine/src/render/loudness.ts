import { readFile } from 'node:fs/promises';

/**
 * Integrated loudness (ITU-R BS.1770-4, EBU R128 gating) of a PCM WAV, computed here instead of in an ffmpeg run
 * of its own: it is the first of the two levelling passes, and the second (that gain and the limiter) is applied by
 * the render's encode as it reads the voice (decisions 150, 155). The report still meters the finished MP4 with
 * ffmpeg, so what this meter differs from ffmpeg's (±0.2 LU) shows there.
 */

export interface PcmWav {
  sampleRate: number;
  /** One Float32Array per channel, samples in [-1, 1). */
  channels: Float32Array[];
}

/** Reads a 16-bit integer PCM RIFF/WAVE file (what festival and eSpeak write); null for anything else. */
export async function readPcmWav(file: string): Promise<PcmWav | null> {
  const buf = await readFile(file);
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') return null;
  let fmt: { format: number; channels: number; rate: number; bits: number } | null = null;
  for (let at = 12; at + 8 <= buf.length;) {
    const id = buf.toString('ascii', at, at + 4);
    let len = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= buf.length) {
      fmt = {
        format: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        rate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt || fmt.format !== 1 || fmt.bits !== 16 || fmt.channels < 1 || fmt.rate < 8000) return null;
      // A streamed header may say 0 or more than there is: the data then runs to the end of the file.
      if (len === 0 || len === 0xffffffff || body + len > buf.length) len = buf.length - body;
      const frames = Math.floor(len / (2 * fmt.channels));
      // An aligned copy read as 16-bit little-endian samples (every machine we run on is little-endian).
      const pcm = new Int16Array(
        buf.buffer.slice(buf.byteOffset + body, buf.byteOffset + body + frames * 2 * fmt.channels),
      );
      const channels = Array.from({ length: fmt.channels }, () => new Float32Array(frames));
      for (let c = 0; c < fmt.channels; c++) {
        const out = channels[c]!;
        for (let i = 0, j = c; i < frames; i++, j += fmt.channels) out[i] = pcm[j]! / 32768;
      }
      return { sampleRate: fmt.rate, channels };
    }
    at = body + len + (len % 2);
  }
  return null;
}

/** The two K-weighting biquads (high shelf, then high pass) at a sample rate, as libebur128 derives them. */
function kWeighting(rate: number): Array<{ b: [number, number, number]; a: [number, number] }> {
  let f0 = 1681.974450955533;
  const G = 3.999843853973347;
  let Q = 0.7071752369554196;
  let K = Math.tan((Math.PI * f0) / rate);
  const Vh = Math.pow(10, G / 20);
  const Vb = Math.pow(Vh, 0.4996667741545416);
  const a0 = 1 + K / Q + K * K;
  const shelf = {
    b: [(Vh + (Vb * K) / Q + K * K) / a0, (2 * (K * K - Vh)) / a0, (Vh - (Vb * K) / Q + K * K) / a0] as [
      number,
      number,
      number,
    ],
    a: [(2 * (K * K - 1)) / a0, (1 - K / Q + K * K) / a0] as [number, number],
  };
  f0 = 38.13547087602444;
  Q = 0.5003270373238773;
  K = Math.tan((Math.PI * f0) / rate);
  const d = 1 + K / Q + K * K;
  const highPass = {
    b: [1, -2, 1] as [number, number, number],
    a: [(2 * (K * K - 1)) / d, (1 - K / Q + K * K) / d] as [number, number],
  };
  return [shelf, highPass];
}

/**
 * Integrated loudness in LUFS, or null for silence; `padSec` of silence is added at the end first, as the video
 * runs past the voice (so its last 400 ms blocks are whole). A mono track is measured as the stereo track it
 * becomes in a video: ffmpeg puts it in both channels 3 dB down, so their summed power is the mono track's own.
 */
export function integratedLoudness(wav: PcmWav, options: { padSec?: number } = {}): number | null {
  const rate = wav.sampleRate;
  const total = wav.channels[0]!.length + Math.round((options.padSec ?? 0) * rate);
  const hop = Math.round(rate * 0.1);
  const hops = Math.floor(total / hop);
  // Sum of squared K-weighted samples per 100 ms hop, over channels (each weighted 1: no surround here).
  const energy = new Float64Array(hops);
  const [shelf, highPass] = kWeighting(rate);
  const [b0, b1, b2] = shelf!.b;
  const [a1, a2] = shelf!.a;
  const [c1, c2] = highPass!.a;
  for (const samples of wav.channels) {
    // Both biquads in direct form I, their state in locals: this loop is the whole cost (a few ms for 10 s).
    let x1 = 0;
    let x2 = 0;
    let y1 = 0;
    let y2 = 0;
    let z1 = 0;
    let z2 = 0;
    for (let h = 0; h < hops; h++) {
      let sum = 0;
      for (let i = h * hop, end = i + hop; i < end; i++) {
        const x = i < samples.length ? samples[i]! : 0;
        const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
        x2 = x1;
        x1 = x;
        // The high pass's numerator is 1, -2, 1.
        const z = y - 2 * y1 + y2 - c1 * z1 - c2 * z2;
        y2 = y1;
        y1 = y;
        z2 = z1;
        z1 = z;
        sum += z * z;
      }
      energy[h]! += sum;
    }
  }
  // 400 ms blocks overlapping by 75%: four hops each.
  const blocks: number[] = [];
  for (let h = 3; h < hops; h++)
    blocks.push((energy[h]! + energy[h - 1]! + energy[h - 2]! + energy[h - 3]!) / (4 * hop));
  const lufs = (z: number) => -0.691 + 10 * Math.log10(z);
  const mean = (zs: number[]) => zs.reduce((s, z) => s + z, 0) / zs.length;
  const audible = blocks.filter((z) => z > 0 && lufs(z) > -70);
  if (audible.length === 0) return null;
  const relativeGate = lufs(mean(audible)) - 10;
  const gated = audible.filter((z) => lufs(z) > relativeGate);
  return gated.length ? lufs(mean(gated)) : null;
}
