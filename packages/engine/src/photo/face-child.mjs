// Face detection in its own long-lived process (photo/face-worker.ts, decision 189): @vladmandic/human on the
// tfjs WebAssembly backend, with the face-mesh, iris and face-description weights that ship inside the npm
// package. A crash or the model's memory stays here, never in the server or a render worker.
// Requests come over the IPC channel: { id, op: 'image', path } or { id, op: 'frames', path, width, height, count,
// describe: number[], iris?: boolean } (raw RGB24 frames back to back; `describe` lists the frames that also get a descriptor).
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

async function frames(m) {
  const size = m.width * m.height * 3;
  // Every frame is detected afresh (cacheSensitivity 0): with human's frame cache on, small mouth changes were
  // read from the previous frame and the lip-sync correlation fell from 0.52 to 0.44 on the same video.
  const started = Date.now();
  // Frames skip the iris model unless asked: the checks read eyelids and eye corners, not irises.
  human.config.face.iris.enabled = m.iris === true;
  const file = await open(m.path, 'r');
  const wanted = new Set(m.describe ?? []);
  const out = [];
  try {
    const buf = Buffer.alloc(size);
    for (let i = 0; i < m.count; i++) {
      const { bytesRead } = await file.read(buf, 0, size, i * size);
      if (bytesRead < size) break;
      out.push(await detect(new Uint8Array(buf), m.width, m.height, wanted.has(i)));
    }
  } finally {
    await file.close();
    human.config.face.iris.enabled = true;
  }
  if (process.env.HOOKREEL_FACE_TIMING) console.error(`face frames: ${out.length} in ${Date.now() - started} ms`);
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
