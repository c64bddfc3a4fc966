/**
 * What the render benchmarks measure against, and how they read CPU time (Linux /proc).
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { cpus } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AUDIO_CODEC_ARGS, VIDEO_CODEC_ARGS } from '../../packages/engine/src/render/index.ts';
import { runProcess } from '../../packages/engine/src/util/process.ts';
import { closeSpawner } from '../../packages/engine/src/util/spawner.ts';

export interface FloorRun {
  wall: number;
  cpu: number;
  /** Share of the cores other processes used meanwhile. */
  othersShare: number;
}

/**
 * The floor (decision 093): the frames one render produced, decoded once to raw yuv420p, and its sound track,
 * encoded with the renders' codec settings `count` times, `atOnce` at a time (as the renders ran). x264 codes the
 * same moving pictures a render codes, so the ratio is what the rest of a render costs, not what motion costs x264.
 */
export async function bareEncode(input: {
  video: string;
  workDir: string;
  count: number;
  atOnce: number;
}): Promise<FloorRun> {
  const { video, workDir, count, atOnce } = input;
  const frames = path.join(workDir, 'frames.yuv');
  const sound = path.join(workDir, 'sound.wav');
  await runProcess('ffmpeg', [
    '-y',
    '-v',
    'error',
    '-i',
    video,
    '-map',
    '0:v',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'yuv420p',
    frames,
  ]);
  await runProcess('ffmpeg', ['-y', '-v', 'error', '-i', video, '-map', '0:a', '-c:a', 'pcm_s16le', sound]);
  const { stdout } = await runProcess('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0'],
    ...['-show_entries', 'stream=width,height,r_frame_rate', '-of', 'csv=p=0', video],
  ]);
  const [width, height, rate] = stdout.trim().split(',');
  const encode = (i: number) =>
    runProcess('ffmpeg', [
      ...['-y', '-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', rate!],
      ...['-i', frames, '-i', sound],
      ...VIDEO_CODEC_ARGS,
      ...['-pix_fmt', 'yuv420p'],
      ...AUDIO_CODEC_ARGS,
      ...['-ar', '48000', '-ac', '2', '-movflags', '+faststart', path.join(workDir, `bare-${i}.mp4`)],
    ]);
  // The encodes' CPU reaches this process's children's time when the spawner helper that started them is reaped
  // (decision 166): one helper for exactly these encodes, ended before the CPU is read.
  await closeSpawner();
  const started = performance.now();
  const cpuStarted = await cpuSeconds();
  const machineStarted = await machineBusySeconds();
  for (let i = 0; i < count; i += atOnce) {
    await Promise.all(Array.from({ length: Math.min(atOnce, count - i) }, (_, k) => encode(i + k)));
  }
  const wall = (performance.now() - started) / 1000;
  await closeSpawner();
  const cpu = (await cpuSeconds()) - cpuStarted;
  const machine = (await machineBusySeconds()) - machineStarted;
  await rm(frames, { force: true });
  return { wall, cpu, othersShare: Math.max(0, machine - cpu) / (cpus().length * wall) };
}

/** CPU seconds (user, nice, system, irq, softirq, steal) every core of the machine spent busy, from /proc/stat. */
export async function machineBusySeconds(): Promise<number> {
  const stat = await readFile('/proc/stat', 'utf8');
  const fields = stat.split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (clock ticks, 100 per second)
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + irq + softirq + steal) / 100;
}

/**
 * User+sys CPU seconds of this process plus its finished children (ffmpeg, the voices), from /proc (Linux):
 * fields 14–17 of /proc/self/stat are utime, stime, cutime, cstime in clock ticks (100 per second).
 */
export async function cpuSeconds(): Promise<number> {
  return parseCpu(await readFile('/proc/self/stat', 'utf8'));
}

/** The same, read synchronously (inside a progress callback). */
export const cpuSecondsSync = (): number => parseCpu(readFileSync('/proc/self/stat', 'utf8'));

function parseCpu(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name, field 3 (state) is index 0, so utime (field 14) is index 11.
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100;
}

export async function findFile(root: string, name: string): Promise<string> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const hit = entries.find((e) => e.isFile() && e.name === name);
  if (!hit) throw new Error(`no ${name} under ${root}`);
  return path.join(hit.parentPath, hit.name);
}
