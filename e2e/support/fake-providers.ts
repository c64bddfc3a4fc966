/**
 * Local fakes of the paid providers for the e2e run (ElevenLabs, fal's queue and its CDN, OpenAI-compatible image
 * edits), on fixed ports next to the app's, speaking their documented wire formats. Started by playwright.config.ts
 * before the server, which is pointed at them. Media is made with ffmpeg at start-up.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { elevenLabsHandler, falQueueHandler, openAIEditsHandler, startFakeServer } from '@hookreel/engine/testing';

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
const png = ff(['-f', 'lavfi', '-i', 'color=c=0xb08d74:size=1024x1536', '-frames:v', '1'], 'edited.png');

const cdn = await startFakeServer(() => ({ headers: { 'content-type': 'video/mp4' }, body: clip }), {
  port: base + 2,
});
await startFakeServer(elevenLabsHandler({ audio: mp3 }), { port: base + 1 });
await startFakeServer(falQueueHandler({ videoUrl: `${cdn.url}/files/out.mp4`, duration: 3 }), { port: base + 3 });
// Listening last: playwright waits for this port before it starts the app.
await startFakeServer(openAIEditsHandler({ image: png }), { port: base });
