/**
 * Local fakes of the paid providers for the e2e run (ElevenLabs, fal's queue and its CDN, the OpenAI-compatible
 * image API: generations and edits), on fixed ports next to the app's, speaking their documented wire formats.
 * Started by playwright.config.ts before the server, which is pointed at them. Media is made with ffmpeg at
 * start-up.
 *
 * Every provider request is logged in arrival order; `GET /__fake/requests` on the first port answers the log
 * (provider, method, path, time) so a spec can check which calls a job made and in what order.
 *
 * `POST /__fake/fal/hold` keeps every fal request in progress (its status polls answer IN_PROGRESS) until
 * `POST /__fake/fal/release`: a spec that checks a Realistic job while it is under way holds it there, rather than
 * counting on the job being slower than the page (the e2e server polls fal every 250 ms).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  elevenLabsHandler,
  falQueueHandler,
  openAIImagesHandler,
  portraitFixture,
  startFakeServer,
  type FakeReply,
  type RecordedRequest,
} from '@hookreel/engine/testing';

export interface LoggedRequest {
  /** `fal-storage`: fal's upload flow (initiate, PUT, file), served by the fal fake like fal's REST host. */
  provider: 'openai' | 'elevenlabs' | 'fal-cdn' | 'fal' | 'fal-storage';
  method: string;
  path: string;
  at: number;
}

const base = Number(process.env.FAKE_PROVIDERS_PORT);
const dir = mkdtempSync(path.join(tmpdir(), 'hookreel-fakes-'));
const ff = (args: string[], out: string) => {
  execFileSync('ffmpeg', ['-y', '-v', 'error', ...args, path.join(dir, out)]);
  return readFileSync(path.join(dir, out));
};
const mp3 = ff(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=3', '-ar', '44100'], 'voice.mp3');
const clip = ff(
  ['-f', 'lavfi', '-i', 'testsrc=size=288x512:rate=25:duration=3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
  'avatar.mp4',
);
// The images API answers gpt-image-1's portrait size: a real face (the public-domain test portrait, so a catalogue
// actor made photoreal passes the face check, decision 216) and a warm skin-tone frame as the edit of it.
writeFileSync(path.join(dir, 'face.png'), await portraitFixture('portrait'));
const portrait = ff(
  [
    '-i',
    path.join(dir, 'face.png'),
    '-vf',
    'scale=1024:1536:force_original_aspect_ratio=increase,crop=1024:1536',
    '-frames:v',
    '1',
  ],
  'portrait.png',
);
const edited = ff(['-f', 'lavfi', '-i', 'color=c=0xb08d74:size=1024x1536', '-frames:v', '1'], 'edited.png');

const log: LoggedRequest[] = [];
let falHeld = false;
const falStatus = /^\/[^/]+\/[^/]+\/requests\/[^/]+\/status$/;
const logged =
  (
    provider: LoggedRequest['provider'],
    handler: (req: RecordedRequest, server: { url: string }) => FakeReply | Promise<FakeReply>,
  ) =>
  (req: RecordedRequest, server: { url: string }) => {
    const route = req.path.split('?')[0]!;
    if (req.method === 'GET' && route === '/__fake/requests') return { json: log };
    if (req.method === 'POST' && (route === '/__fake/fal/hold' || route === '/__fake/fal/release')) {
      falHeld = route === '/__fake/fal/hold';
      return { json: { held: falHeld } };
    }
    const storage = provider === 'fal' && /^\/(storage|__upload|files)\//.test(route);
    log.push({ provider: storage ? 'fal-storage' : provider, method: req.method, path: route, at: req.at });
    if (provider === 'fal' && falHeld && req.method === 'GET' && falStatus.test(route)) {
      return { status: 202, json: { status: 'IN_PROGRESS' } };
    }
    return handler(req, server);
  };

const cdn = await startFakeServer(
  logged('fal-cdn', () => ({ headers: { 'content-type': 'video/mp4' }, body: clip })),
  { port: base + 2 },
);
await startFakeServer(logged('elevenlabs', elevenLabsHandler({ audio: mp3 })), { port: base + 1 });
await startFakeServer(logged('fal', falQueueHandler({ videoUrl: `${cdn.url}/files/out.mp4`, duration: 3 })), {
  port: base + 3,
});
// Listening last: playwright waits for this port before it starts the app.
await startFakeServer(logged('openai', openAIImagesHandler({ portrait, edited })), { port: base });
