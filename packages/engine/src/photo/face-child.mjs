// Face detection in its own long-lived process (photo/face-worker.ts, decision 189): @vladmandic/human on the
// tfjs WebAssembly backend, with the face-mesh, iris and face-description weights that ship inside the npm
// package. A crash or the model's memory stays here, never in the server or a render worker.
// Requests come over the IPC channel: { id, op: 'image', path } or { id, op: 'frames', path, width, height, count,
// describe: number[], iris?: boolean, track?: boolean, only?: number[] } (raw RGB24 frames back to back; `describe`
// lists the frames that also get a descriptor; `track` follows one face through the frames, `only` detects just
// the frames listed, in that order).
// Answers: { id, ok: true, result } or { id, ok: false, error }.
import { readFile, open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';

const require = createRequire(import.meta.url);
const humanDist = path.dirname(require.resolve('@vladmandic/human'));
const wasmDist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));

// Node's fetch refuses file:// URLs; tfjs loads both the model JSON/weights and the .wasm binaries through it.
const netFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  const href = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
  if (!href.startsWith('file://')) return netFetch(url, init);
  const bytes = await readFile(new URL(href));
  const type = href.endsWith('.json')
    ? 'application/json'
    : href.endsWith('.wasm')
      ? 'application/wasm'
      : 'application/octet-stream';
  return new Response(bytes, { status: 200, headers: { 'content-type': type } });
};

const { Human } = require(path.join(humanDist, 'human.node-wasm.js'));

const human = new Human({
  backend: 'wasm',
  wasmPath: `${pathToFileURL(wasmDist).href}/`,
  modelBasePath: `${pathToFileURL(path.join(path.dirname(humanDist), 'models')).href}/`,
  debug: false,
  warmup: 'none',
  async: true,
  cacheSensitivity: 0, // every call is a new picture: never reuse the last result
  face: {
    enabled: true,
    detector: { rotation: true, maxDetected: 5, minConfidence: 0.5, return: false },
    mesh: { enabled: true },
    iris: { enabled: true },
    description: { enabled: true },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  filter: { enabled: false },
});

const round = (v, k = 10) => Math.round(v * k) / k;

async function detect(pixels, width, height, describe) {
  const tensor = human.tf.tensor3d(pixels, [height, width, 3], 'int32');
  try {
    human.config.face.description.enabled = describe;
    const r = await human.detect(tensor);
    return r.face.map((f) => ({
      score: round(f.score, 1000),
      box: f.box.map((v) => round(v)),
      mesh: f.mesh.map(([x, y, z]) => [round(x), round(y), round(z)]),
      angle: f.rotation?.angle ?? null,
      descriptor: describe && f.embedding?.length ? Array.from(f.embedding, (v) => round(v, 10000)) : null,
    }));
  } finally {
    tensor.dispose();
  }
}

async function image(m) {
  const { data, info } = await sharp(m.path).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = await detect(new Uint8Array(data), info.width, info.height, true);
  return { width: info.width, height: info.height, faces };
}

/**
 * The face mesh on a box of the frame, as human runs it on the box it carries from one frame to the next (its
 * `skipFrames` path, facemesh.ts): the box cut out and resized to the mesh model's input, the model's 468 points
 * mapped back into the frame and its face confidence; null below the detector's confidence. Upright faces only
 * (human rotates the crop only past 0.2 rad; a photo actor's head sways a degree or two). The points are truncated
 * to whole pixels as human's are, so tracked and detected frames read alike (the checks were calibrated on those).
 */
async function meshOnBox(input, box) {
  const tf = human.tf;
  const model = human.models.models.facemesh;
  const size = model.inputs[0].shape[2];
  const [h, w] = [input.shape[1], input.shape[2]];
  const crop = tf.image.cropAndResize(input, [[box[1] / h, box[0] / w, box[3] / h, box[2] / w]], [0], [size, size]);
  const norm = tf.div(crop, 255);
  const results = model.execute(norm);
  tf.dispose([crop, norm]);
  try {
    const conf = (await results.find((t) => t.shape[t.shape.length - 1] === 1).data())[0];
    const score = Math.round(100 * conf) / 100;
    if (score < human.config.face.detector.minConfidence) return null;
    const raw = await results.find((t) => t.shape[t.shape.length - 1] === 1404).data();
    const [bw, bh] = [box[2] - box[0], box[3] - box[1]];
    const [cx, cy] = [box[0] + bw / 2, box[1] + bh / 2];
    const mesh = [];
    for (let k = 0; k < raw.length; k += 3)
      mesh.push([
        Math.trunc((bw / size) * (raw[k] - size / 2) + cx),
        Math.trunc((bh / size) * (raw[k + 1] - size / 2) + cy),
        Math.trunc(raw[k + 2]),
      ]);
    return { score, mesh };
  } finally {
    tf.dispose(results);
  }
}

/** The mesh's extent [x0, y0, x1, y1]. */
function extent(mesh) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of mesh) {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  }
  return [x0, y0, x1, y1];
}

/** Frames between two runs of the face detector while a face is tracked. */
const REDETECT_EVERY = 16;
/** A tracked face whose size against its box changed by more than this (a cut, a push-in) is detected afresh. */
const REDETECT_SCALE = 0.12;
/**
 * Faces on frames of one video, tracked (decision 203): the detector (BlazeFace, about two thirds of a detection's
 * cost here) runs on the first frame, every REDETECT_EVERY frames, on frames that get a descriptor, and whenever the
 * tracked face is lost or changes size in its box; the mesh runs on every frame, on the detector's box carried
 * over and centred on the face (as MediaPipe and human follow a face in a video). A frame holds the tracked face.
 */
async function trackFrames(m, file, wanted) {
  const size = m.width * m.height * 3;
  const out = [];
  let detections = 0;
  /** The tracked face: its box [x0, y0, x1, y1], the mesh's width over the box's when detected, frames since. */
  let tracked = null;
  const buf = Buffer.alloc(size);
  const toFace = (f, box, descriptor, angle) => {
    const [x0, y0] = [Math.max(0, box[0]), Math.max(0, box[1])];
    return {
      score: f.score,
      box: [x0, y0, Math.min(m.width, box[2]) - x0, Math.min(m.height, box[3]) - y0].map((v) => round(v)),
      mesh: f.mesh.map(([x, y, z]) => [round(x), round(y), round(z)]),
      angle,
      descriptor,
    };
  };
  for (let i = 0; i < m.count; i++) {
    const { bytesRead } = await file.read(buf, 0, size, i * size);
    if (bytesRead < size) break;
    const pixels = new Uint8Array(buf);
    const input = human.tf.tidy(() =>
      human.tf.cast(human.tf.tensor4d(pixels, [1, m.height, m.width, 3], 'int32'), 'float32'),
    );
    try {
      let face = null;
      if (tracked && !wanted.has(i) && tracked.age < REDETECT_EVERY) {
        const f = await meshOnBox(input, tracked.box);
        if (f) {
          const e = extent(f.mesh);
          const b = tracked.box;
          const [bw, bh] = [b[2] - b[0], b[3] - b[1]];
          const within = e[0] >= b[0] && e[1] >= b[1] && e[2] <= b[2] && e[3] <= b[3];
          if (within && Math.abs((e[2] - e[0]) / bw / tracked.share - 1) <= REDETECT_SCALE) {
            face = toFace(f, b, null, null);
            // The next frame's box: this one's size, centred on this frame's face (human's calculateFaceBox).
            const [cx, cy] = [(e[0] + e[2]) / 2, (e[1] + e[3]) / 2];
            tracked = { ...tracked, box: [cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], age: tracked.age + 1 };
          }
        }
      }
      if (!face) {
        detections++;
        const found = await detect(pixels, m.width, m.height, wanted.has(i));
        const best = found.filter((f) => f.score >= 0.5).sort((a, b) => b.box[3] - a.box[3])[0];
        tracked = null;
        if (best) {
          // human's box of a detected face: the detector's (enlarged, square) size centred on its mesh.
          face = best;
          const [x, y, bw, bh] = best.box;
          const e = extent(best.mesh);
          tracked = { box: [x, y, x + bw, y + bh], share: (e[2] - e[0]) / bw, age: 0 };
        }
      }
      out.push(face ? [face] : []);
    } finally {
      input.dispose();
    }
  }
  return { out, detections };
}

async function frames(m) {
  const size = m.width * m.height * 3;
  // Every frame is measured afresh (cacheSensitivity 0): with human's frame cache on, small mouth changes were
  // read from the previous frame and the lip-sync correlation fell from 0.52 to 0.44 on the same video.
  const started = Date.now();
  // Frames skip the iris model unless asked: the checks read eyelids and eye corners, not irises.
  human.config.face.iris.enabled = m.iris === true;
  const file = await open(m.path, 'r');
  const wanted = new Set(m.describe ?? []);
  let out = [];
  let detections = 0;
  try {
    if (m.track === true && !m.iris) ({ out, detections } = await trackFrames(m, file, wanted));
    else if (m.only) {
      const buf = Buffer.alloc(size);
      for (const i of m.only) {
        const { bytesRead } = await file.read(buf, 0, size, i * size);
        out.push(bytesRead < size ? [] : await detect(new Uint8Array(buf), m.width, m.height, wanted.has(i)));
        detections++;
      }
    } else {
      const buf = Buffer.alloc(size);
      for (let i = 0; i < m.count; i++) {
        const { bytesRead } = await file.read(buf, 0, size, i * size);
        if (bytesRead < size) break;
        out.push(await detect(new Uint8Array(buf), m.width, m.height, wanted.has(i)));
        detections++;
      }
    }
  } finally {
    await file.close();
    human.config.face.iris.enabled = true;
  }
  if (process.env.HOOKREEL_FACE_TIMING)
    console.error(`face frames: ${out.length} in ${Date.now() - started} ms, ${detections} detected in full`);
  return out;
}

const ready = (async () => {
  await human.load();
  // A blank frame compiles the detector's graph; the mesh and descriptor compile on the first face (~0.5 s).
  await detect(new Uint8Array(64 * 64 * 3), 64, 64, true);
})();

let queue = Promise.resolve();
process.on('message', (m) => {
  queue = queue.then(async () => {
    try {
      await ready;
      const result =
        m.op === 'ping' ? { backend: human.tf.getBackend() } : m.op === 'frames' ? await frames(m) : await image(m);
      if (process.connected) process.send({ id: m.id, ok: true, result });
    } catch (e) {
      if (process.connected) process.send({ id: m.id, ok: false, error: String(e?.stack ?? e) });
    }
  });
});
process.on('disconnect', () => process.exit(0));
