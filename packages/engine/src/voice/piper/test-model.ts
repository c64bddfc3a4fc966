/**
 * A tiny ONNX model with Piper's input and output signature, written byte by byte (ONNX is protobuf: a handful
 * of varint and length-delimited fields), so the Piper runner is tested on a real graph that onnxruntime loads and
 * runs, without downloading a voice. Used by the tests and the voice bench only.
 *
 * The graph: for each phoneme id `p`, a duration of ceil(length_scale × (1 + p mod 3)) frames (what Piper's
 * `w_ceil` is), and `output` a 220 Hz tone of sum(durations) × 256 samples, shaped [1, 1, T]. With `durations`,
 * the frame counts are a second output shaped [1, 1, N], as a voice patched with Piper's
 * `patch_voice_with_alignment` has.
 */

// --- protobuf wire format ---
function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, n: number | bigint) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, b: ArrayLike<number>) => [...key(field, 2), ...varint(b.length), ...Array.from(b)];
const str = (field: number, s: string) => bytes(field, Buffer.from(s, 'utf8'));
const msg = (field: number, parts: number[][]) => bytes(field, parts.flat());
const f32 = (field: number, v: number) => {
  const b = Buffer.alloc(4);
  b.writeFloatLE(v);
  return [...key(field, 5), ...b];
};

const FLOAT = 1;
const INT64 = 7;

/** TensorProto (a constant) with raw little-endian data. */
function tensor(name: string, type: number, dims: number[], values: number[]): number[][] {
  const raw = Buffer.alloc(values.length * (type === FLOAT ? 4 : 8));
  values.forEach((v, i) => (type === FLOAT ? raw.writeFloatLE(v, i * 4) : raw.writeBigInt64LE(BigInt(v), i * 8)));
  return [...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw)];
}

/** ValueInfoProto: a graph input or output, each dimension a number or a symbolic name. */
function valueInfo(name: string, type: number, dims: Array<number | string>): number[][] {
  const shape = dims.map((d) => msg(1, [typeof d === 'number' ? int(1, d) : str(2, d)]));
  return [str(1, name), msg(2, [msg(1, [int(1, type), msg(2, shape)])])];
}

type Attr = { name: string; i?: number; f?: number };
function node(op: string, inputs: string[], outputs: string[], attrs: Attr[] = []): number[][] {
  return [
    ...inputs.map((i) => str(1, i)),
    ...outputs.map((o) => str(2, o)),
    str(3, `${op}_${outputs[0]}`),
    str(4, op),
    ...attrs.map((a) =>
      msg(5, [str(1, a.name), ...(a.f !== undefined ? [f32(2, a.f), int(20, 1)] : [int(3, a.i!), int(20, 2)])]),
    ),
  ];
}

export interface TestModelOptions {
  /** A second output with each phoneme id's frames (a voice patched for alignments). */
  durations?: boolean;
  /** Name of the phoneme input (Piper's is `input`; another name makes a model of the wrong shape). */
  inputName?: string;
  /** Leave the `scales` input out (a model of the wrong shape). */
  noScales?: boolean;
}

/** The bytes of the model (see the file's comment). */
export function piperTestModel(options: TestModelOptions = {}): Buffer {
  const input = options.inputName ?? 'input';
  const HOP = 256;
  const nodes = [
    node('Mod', [input, 'three'], ['mod3'], [{ name: 'fmod', i: 0 }]),
    node('Cast', ['mod3'], ['mod3f'], [{ name: 'to', i: FLOAT }]),
    node('Add', ['mod3f', 'onef'], ['base']),
    ...(options.noScales
      ? [node('Identity', ['onef'], ['length_scale'])]
      : [node('Gather', ['scales', 'idx1'], ['length_scale'], [{ name: 'axis', i: 0 }])]),
    node('Mul', ['base', 'length_scale'], ['w']),
    node('Ceil', ['w'], ['w_ceil']),
    node('Reshape', ['w_ceil', 'shape3'], ['durations']),
    node('ReduceSum', ['w_ceil'], ['frames'], [{ name: 'keepdims', i: 0 }]),
    node('Mul', ['frames', 'hop'], ['samples_f']),
    node('Cast', ['samples_f'], ['samples'], [{ name: 'to', i: INT64 }]),
    node('Range', ['zero', 'samples', 'step'], ['t']),
    node('Cast', ['t'], ['tf'], [{ name: 'to', i: FLOAT }]),
    node('Mul', ['tf', 'omega'], ['phase']),
    node('Sin', ['phase'], ['sine']),
    node('Mul', ['sine', 'amplitude'], ['audio']),
    node('Reshape', ['audio', 'shape3'], ['output']),
  ];
  const initializers = [
    tensor('three', INT64, [], [3]),
    tensor('onef', FLOAT, [], [1]),
    tensor('idx1', INT64, [], [1]),
    tensor('shape3', INT64, [3], [1, 1, -1]),
    tensor('hop', FLOAT, [], [HOP]),
    tensor('zero', INT64, [], [0]),
    tensor('step', INT64, [], [1]),
    tensor('omega', FLOAT, [], [(2 * Math.PI * 220) / 22050]),
    tensor('amplitude', FLOAT, [], [0.3]),
  ];
  const inputs = [
    valueInfo(input, INT64, [1, 'phonemes']),
    valueInfo('input_lengths', INT64, [1]),
    ...(options.noScales ? [] : [valueInfo('scales', FLOAT, [3])]),
  ];
  const outputs = [
    valueInfo('output', FLOAT, [1, 1, 'time']),
    ...(options.durations ? [valueInfo('durations', FLOAT, [1, 1, 'phonemes'])] : []),
  ];
  const graph = [
    ...nodes.map((n) => msg(1, n)),
    str(2, 'piper-test'),
    ...initializers.map((t) => msg(5, t)),
    ...inputs.map((v) => msg(11, v)),
    ...outputs.map((v) => msg(12, v)),
  ];
  const model = [int(1, 8), str(2, 'hookreel-test'), msg(7, graph), msg(8, [str(1, ''), int(2, 13)])];
  return Buffer.from(model.flat());
}

/** The durations the test model gives a phoneme id at a length scale (its frames; × 256 for samples). */
export const testModelFrames = (id: number, lengthScale = 1): number => Math.ceil(lengthScale * (1 + (id % 3)));

/** A Piper voice config for the test model: a small phoneme map, espeak voice `en-us`, 22,050 Hz. */
export function piperTestConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const symbols = ['_', '^', '$', ' ', '!', "'", ',', '.', '?', ...'abdefhijklmnoprstuvwzæðŋɑɔəɛɚɜɡɪɹʃʊʌʒˈˌːθ'];
  return {
    audio: { sample_rate: 22050, quality: 'medium' },
    espeak: { voice: 'en-us' },
    language: { code: 'en_US', family: 'en', region: 'US' },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: 'espeak',
    phoneme_id_map: Object.fromEntries(symbols.map((s, i) => [s, [i]])),
    num_symbols: symbols.length,
    num_speakers: 1,
    speaker_id_map: {},
    piper_version: '1.0.0',
    ...overrides,
  };
}
