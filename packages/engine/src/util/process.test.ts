import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from './process.ts';

const FIXTURE = fileURLToPath(new URL('./process-child.fixture.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** Pids of the live (not zombie) processes whose parent is `ppid`, with their command names. */
function childrenOf(ppid: number): Array<{ pid: number; comm: string }> {
  const found: Array<{ pid: number; comm: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …; comm may hold spaces, so read after the last ')'.
      const close = stat.lastIndexOf(')');
      const [state, parent] = stat.slice(close + 2).split(' ');
      if (Number(parent) === ppid && state !== 'Z')
        found.push({ pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // gone while we looked
    }
  }
  return found;
}
/** The live processes under `ppid`, at any depth (programs are started by the spawner helper, decision 166). */
function descendantsOf(ppid: number): Array<{ pid: number; comm: string }> {
  const found = childrenOf(ppid);
  for (const child of [...found]) found.push(...descendantsOf(child.pid));
  return found;
}
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
};

describe('runProcess', () => {
  it('runs a program and returns its output', async () => {
    const { stdout } = await runProcess('ffmpeg', ['-hide_banner', '-version']);
    expect(stdout).toMatch(/^ffmpeg version/);
  });

  it('leaves no ffmpeg behind when the process that started it is killed outright', async () => {
    const worker = fork(FIXTURE, [], { execArgv: ['--import', TSX], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('exit', (code) => reject(new Error(`fixture exited early (${code})`)));
    });
    // The spawner helper starts first, then ffmpeg: under a loaded machine that can take more than the fixture's
    // 300 ms, so wait for the ffmpeg to appear rather than sampling once.
    const ffmpegUnder = () => descendantsOf(worker.pid!).filter((c) => c.comm === 'ffmpeg');
    let ffmpeg = ffmpegUnder();
    for (let i = 0; i < 150 && ffmpeg.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ffmpeg = ffmpegUnder();
    }
    expect(ffmpeg).toHaveLength(1);
    worker.kill('SIGKILL');
    // The kernel delivers the parent-death signal at once; allow the scheduler a moment.
    for (let i = 0; i < 50 && alive(ffmpeg[0]!.pid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(ffmpeg[0]!.pid)).toBe(false);
  });
});
