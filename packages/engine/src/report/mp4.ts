import { open } from 'node:fs/promises';

/**
 * The stream facts the quality report checks, read from an MP4's `moov` box instead of starting ffprobe (which
 * costs ~0.09 s of CPU a video, mostly loading its libraries; decision 150). Only what our own encoder writes
 * needs reading: one H.264 and one AAC track, `moov` first (+faststart) or last.
 */
export interface Mp4Facts {
  width: number;
  height: number;
  /** "num:den"; square when the file says nothing about it, as ffprobe reports it then. */
  sar: string;
  /** The movie's duration (mvhd), in seconds. */
  duration: number;
  sampleRate: number | null;
  channels: number | null;
  /** Where each stream starts and ends on the presentation timeline (edit lists applied), in seconds. */
  video: { start: number; end: number } | null;
  audio: { start: number; end: number } | null;
}

interface Box {
  type: string;
  /** Payload, after the box header. */
  body: Buffer;
}

function* boxes(buf: Buffer): Generator<Box> {
  let at = 0;
  while (at + 8 <= buf.length) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = buf.length - at;
    if (size < header || at + size > buf.length) return;
    yield { type, body: buf.subarray(at + header, at + size) };
    at += size;
  }
}

const child = (buf: Buffer, type: string): Buffer | null => {
  for (const b of boxes(buf)) if (b.type === type) return b.body;
  return null;
};
const path = (buf: Buffer | null, ...types: string[]): Buffer | null =>
  types.reduce<Buffer | null>((b, t) => (b ? child(b, t) : null), buf);

/** Finds `moov` by walking the top-level boxes from the file, reading only their headers and `moov` itself. */
async function readMoov(file: string): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(16);
    let at = 0;
    while (at + 8 <= size) {
      await fh.read(head, 0, 16, at);
      let boxSize = head.readUInt32BE(0);
      const type = head.toString('latin1', 4, 8);
      let header = 8;
      if (boxSize === 1) {
        boxSize = Number(head.readBigUInt64BE(8));
        header = 16;
      } else if (boxSize === 0) boxSize = size - at;
      if (boxSize < header) break;
      if (type === 'moov') {
        const body = Buffer.alloc(boxSize - header);
        await fh.read(body, 0, body.length, at + header);
        return body;
      }
      at += boxSize;
    }
  } finally {
    await fh.close();
  }
  throw new Error(`No moov box in ${file}`);
}

/** (timescale, duration) of an mvhd or mdhd box (same layout up to there). */
function timing(body: Buffer): { timescale: number; duration: number } {
  const v1 = body[0] === 1;
  return v1
    ? { timescale: body.readUInt32BE(20), duration: Number(body.readBigUInt64BE(24)) }
    : { timescale: body.readUInt32BE(12), duration: body.readUInt32BE(16) };
}

/** Start and end of a track on the movie timeline: its edit list applied, or its media duration without one. */
function span(
  trak: Buffer,
  movieScale: number,
  media: { timescale: number; duration: number },
): { start: number; end: number } {
  const elst = path(trak, 'edts', 'elst');
  if (!elst) return { start: 0, end: media.duration / media.timescale };
  const v1 = elst[0] === 1;
  const count = elst.readUInt32BE(4);
  let start = 0;
  let length = 0;
  let at = 8;
  for (let i = 0; i < count; i++) {
    const segment = v1 ? Number(elst.readBigUInt64BE(at)) : elst.readUInt32BE(at);
    const mediaTime = v1 ? Number(elst.readBigInt64BE(at + 8)) : elst.readInt32BE(at + 4);
    at += v1 ? 20 : 12;
    // An empty edit (media time -1) delays the track; the others play it.
    if (mediaTime === -1) {
      if (length === 0) start += segment / movieScale;
    } else length += segment / movieScale;
  }
  // The edit's length is in the movie's coarser timescale (ms): the media's own length is exact when shorter.
  return { start, end: start + Math.min(length, media.duration / media.timescale) };
}

/** The sample aspect ratio an H.264 stream declares in its SPS (VUI), or null when it declares none. */
export function spsAspect(sps: Buffer): string | null {
  const bits = new BitReader(unescape(sps.subarray(1)));
  const profile = bits.u(8);
  bits.u(16); // constraint flags, level
  bits.ue(); // seq_parameter_set_id
  if ([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].includes(profile)) {
    const chroma = bits.ue();
    if (chroma === 3) bits.u(1);
    bits.ue(); // bit depth luma
    bits.ue(); // bit depth chroma
    bits.u(1); // qpprime_y_zero_transform_bypass
    if (bits.u(1)) {
      for (let i = 0; i < (chroma === 3 ? 12 : 8); i++) if (bits.u(1)) skipScalingList(bits, i < 6 ? 16 : 64);
    }
  }
  bits.ue(); // log2_max_frame_num
  const pocType = bits.ue();
  if (pocType === 0) bits.ue();
  else if (pocType === 1) {
    bits.u(1);
    bits.se();
    bits.se();
    const n = bits.ue();
    for (let i = 0; i < n; i++) bits.se();
  }
  bits.ue(); // max_num_ref_frames
  bits.u(1);
  bits.ue(); // width in mbs
  bits.ue(); // height in map units
  if (!bits.u(1)) bits.u(1); // frame_mbs_only, mb_adaptive
  bits.u(1); // direct_8x8_inference
  if (bits.u(1)) {
    bits.ue();
    bits.ue();
    bits.ue();
    bits.ue();
  }
  if (!bits.u(1)) return null; // no VUI
  if (!bits.u(1)) return null; // no aspect_ratio_info
  const idc = bits.u(8);
  if (idc === 255) return `${bits.u(16)}:${bits.u(16)}`;
  const table: Array<[number, number]> = [
    [0, 1],
    [1, 1],
    [12, 11],
    [10, 11],
    [16, 11],
    [40, 33],
    [24, 11],
    [20, 11],
    [32, 11],
    [80, 33],
    [18, 11],
    [15, 11],
    [64, 33],
    [160, 99],
    [4, 3],
    [3, 2],
    [2, 1],
  ];
  const r = table[idc];
  return r && r[0] ? `${r[0]}:${r[1]}` : null;
}

function skipScalingList(bits: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + bits.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}

/** The RBSP of a NAL unit: emulation-prevention bytes (00 00 03) removed. */
function unescape(nal: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i++) {
    if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    out.push(nal[i]!);
  }
  return Buffer.from(out);
}

class BitReader {
  private bit = 0;
  constructor(private readonly buf: Buffer) {}
  u(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) {
      const byte = this.buf[this.bit >> 3];
      if (byte === undefined) throw new Error('SPS ended early');
      v = v * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return v;
  }
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) if (++zeros > 31) throw new Error('Bad Exp-Golomb code in SPS');
    return 2 ** zeros - 1 + this.u(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
}

const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** Sample rate and channel count of an AAC track's AudioSpecificConfig (in the esds box after an mp4a entry). */
function audioConfig(extras: Buffer): { sampleRate: number; channels: number } | null {
  const esds = child(extras, 'esds');
  if (!esds) return null;
  // Descriptors: tag, a length in 1-4 bytes of 7 bits, then the payload; ES (3) holds DecoderConfig (4) holds
  // DecoderSpecificInfo (5), the AudioSpecificConfig.
  let at = 4;
  const descriptor = (): { tag: number; end: number } | null => {
    if (at >= esds.length) return null;
    const tag = esds[at++]!;
    let len = 0;
    for (let i = 0; i < 4 && at < esds.length; i++) {
      const b = esds[at++]!;
      len = len * 128 + (b & 0x7f);
      if (!(b & 0x80)) break;
    }
    return { tag, end: at + len };
  };
  let d = descriptor();
  if (d?.tag !== 3) return null;
  const flags = esds[at + 2]!;
  at += 3;
  if (flags & 0x80) at += 2;
  if (flags & 0x40) at += 1 + esds[at]!;
  if (flags & 0x20) at += 2;
  d = descriptor();
  if (d?.tag !== 4) return null;
  at += 13;
  d = descriptor();
  if (d?.tag !== 5 || d.end - at < 2) return null;
  const bits = new BitReader(esds.subarray(at, d.end));
  let objectType = bits.u(5);
  if (objectType === 31) objectType = 32 + bits.u(6);
  const index = bits.u(4);
  const sampleRate = index === 15 ? bits.u(24) : (AAC_RATES[index] ?? 0);
  return { sampleRate, channels: bits.u(4) };
}

/** The first SPS of an avcC box. */
function firstSps(avcC: Buffer): Buffer | null {
  if (avcC.length < 8 || (avcC[5]! & 0x1f) === 0) return null;
  const len = avcC.readUInt16BE(6);
  return avcC.length >= 8 + len ? avcC.subarray(8, 8 + len) : null;
}

/** Reads the stream facts of an MP4 (see Mp4Facts); throws when the file is not one. */
export async function mp4Facts(file: string): Promise<Mp4Facts> {
  const moov = await readMoov(file);
  const mvhd = child(moov, 'mvhd');
  if (!mvhd) throw new Error(`No mvhd box in ${file}`);
  const movie = timing(mvhd);
  const facts: Mp4Facts = {
    width: 0,
    height: 0,
    sar: '1:1',
    duration: movie.duration / movie.timescale,
    sampleRate: null,
    channels: null,
    video: null,
    audio: null,
  };
  for (const b of boxes(moov)) {
    if (b.type !== 'trak') continue;
    const mdia = child(b.body, 'mdia');
    const mdhd = mdia && child(mdia, 'mdhd');
    const hdlr = mdia && child(mdia, 'hdlr');
    const stsd = path(mdia, 'minf', 'stbl', 'stsd');
    if (!mdhd || !hdlr || !stsd) continue;
    const handler = hdlr.toString('latin1', 8, 12);
    // stsd: version/flags, entry count, then the first sample entry box.
    const entry = [...boxes(stsd.subarray(8))][0];
    if (!entry) continue;
    if (handler === 'vide' && !facts.video) {
      facts.video = span(b.body, movie.timescale, timing(mdhd));
      facts.width = entry.body.readUInt16BE(24);
      facts.height = entry.body.readUInt16BE(26);
      // A visual sample entry's child boxes follow its 78 fixed bytes.
      const extras = entry.body.subarray(78);
      const pasp = child(extras, 'pasp');
      const avcC = child(extras, 'avcC');
      const sps = avcC && firstSps(avcC);
      // As ffprobe: the stream's own SPS first, the container's pasp box when the SPS says nothing.
      const fromSps = sps ? spsAspect(sps) : null;
      const fromPasp = pasp ? `${pasp.readUInt32BE(0)}:${pasp.readUInt32BE(4)}` : null;
      const sar = fromSps ?? fromPasp;
      if (sar && sar !== '0:1' && !sar.endsWith(':0')) facts.sar = reduce(sar);
    } else if (handler === 'soun' && !facts.audio) {
      facts.audio = span(b.body, movie.timescale, timing(mdhd));
      // The AAC config in esds is what a decoder (and ffprobe) goes by; the sample entry's fields are a fallback.
      const asc = audioConfig(entry.body.subarray(28));
      facts.channels = asc?.channels || entry.body.readUInt16BE(16);
      facts.sampleRate = asc?.sampleRate || entry.body.readUInt32BE(24) >>> 16 || timing(mdhd).timescale;
    }
  }
  return facts;
}

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
function reduce(ratio: string): string {
  const [n, d] = ratio.split(':').map(Number) as [number, number];
  const g = gcd(n, d) || 1;
  return `${n / g}:${d / g}`;
}
