import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProcessError, runProcess } from './process.ts';
import { closeSpawner } from './spawner.ts';

const PROCESS_MODULE = pathToFileURL(fileURLToPath(new URL('./process.ts', import.meta.url))).href;
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

const parentOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
};

describe('programs started through the spawner helper', () => {
  it('are started by the helper, not by this process, with their output, input and exit code', async () => {
    // The shell prints its own pid and its parent's: the parent is the helper (or setpriv's exec of the program).
    const { stdout } = await runProcess('sh', ['-c', 'echo $$ $PPID; cat']);
    const [pid, ppid] = stdout.trim().split('\n')[0]!.split(' ').map(Number);
    expect(pid).toBeGreaterThan(0);
    expect(ppid).not.toBe(process.pid);
    expect(parentOf(ppid!)).toBe(process.pid);

    const binary = Buffer.from([0, 1, 2, 250, 255]);
    const echoed = await runProcess('sh', ['-c', 'od -An -tu1 | tr -s " " | sed "s/^ //"'], { input: binary });
    expect(echoed.stdout.trim()).toBe('0 1 2 250 255');

    const failed = await runProcess('sh', ['-c', 'echo oops >&2; exit 3']).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ProcessError);
    expect((failed as ProcessError).code).toBe(3);
    expect((failed as ProcessError).stderr).toContain('oops');
  });

  it('streams stdout as it comes, kills on abort and on timeout, and reports a missing program', async () => {
    const chunks: string[] = [];
    await runProcess('sh', ['-c', 'echo one; sleep 0.2; echo two'], { onStdout: (c) => chunks.push(c) });
    expect(chunks.join('')).toBe('one\ntwo\n');
    expect(chunks.length).toBeGreaterThanOrEqual(2);

    const controller = new AbortController();
    const started = Date.now();
    const aborted = runProcess('sleep', ['30'], { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 200);
    expect(((await aborted) as Error).message).toBe('cancelled by the test');
    const timedOut = (await runProcess('sleep', ['30'], { timeoutMs: 200 }).catch((e: unknown) => e)) as Error;
    expect(timedOut.message).toBe('sleep timed out after 200 ms');
    expect(Date.now() - started).toBeLessThan(10_000);

    const missing = (await runProcess('no-such-program-hookreel', []).catch((e: unknown) => e)) as Error;
    expect(missing).toBeInstanceOf(Error);
    expect(missing.message).toMatch(/no-such-program-hookreel|ENOENT|exited with/);
  });

  it('starts a new helper after one ends, and counts its programs’ CPU once it is closed', async () => {
    await runProcess('true', []);
    // cutime + cstime of /proc/self/stat: the CPU of reaped children, in ticks of 10 ms.
    const childrenTicks = () => {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      return stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .slice(13, 15)
        .reduce((sum, v) => sum + Number(v), 0);
    };
    const childrenBefore = childrenTicks();
    // 0.6 s of busy CPU in a program the helper starts: counted here only when the helper is reaped.
    await runProcess('sh', ['-c', 'end=$(($(date +%s%N) + 600000000)); while [ $(date +%s%N) -lt $end ]; do :; done']);
    await closeSpawner();
    expect(childrenTicks() - childrenBefore).toBeGreaterThanOrEqual(30);
    const { stdout } = await runProcess('echo', ['again']);
    expect(stdout).toBe('again\n');
  });

  it('does not keep a finished program alive', async () => {
    const script = `const { runProcess } = await import(${JSON.stringify(PROCESS_MODULE)}); await runProcess('true', []); console.log('ran');`;
    const child = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 15_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(out.trim()).toBe('ran');
    expect(code).toBe(0);
  }, 20_000);
});
