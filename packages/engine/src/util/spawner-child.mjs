// The spawner (util/spawner.ts): a small process that starts programs for a large one. Starting a program forks
// the process that asks; a worker holding hundreds of megabytes of pictures paid ~5 ms of CPU and blocked its
// event loop ~10 ms a start, this process a fraction of that. Requests come over the IPC channel; each program's
// output and exit go back the same way. When the channel closes (the worker ended, however) every program still
// running is killed and this process exits.
import { spawn } from 'node:child_process';

/** @type {Map<number, import('node:child_process').ChildProcess>} */
const running = new Map();
const STDERR_TAIL = 20_000;

const send = (message) => {
  if (process.connected) process.send(message);
};

function run(m) {
  let child;
  try {
    child = spawn(m.file, m.argv, { cwd: m.cwd, env: m.env, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    send({ t: 'done', id: m.id, error: { message: e.message, code: e.code ?? null } });
    return;
  }
  running.set(m.id, child);
  let stdout = '';
  let stderr = '';
  let done = false;
  const finish = (message) => {
    if (done) return;
    done = true;
    running.delete(m.id);
    send(message);
  };
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    if (m.stream) send({ t: 'out', id: m.id, chunk });
    else stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  child.on('error', (e) => finish({ t: 'done', id: m.id, error: { message: e.message, code: e.code ?? null } }));
  child.on('close', (code) => finish({ t: 'done', id: m.id, code, stdout, stderr }));
  child.stdin.on('error', () => {
    /* the program may exit before reading its input; its exit says what happened */
  });
  if (m.input === undefined) child.stdin.end();
  else child.stdin.end(m.inputBase64 ? Buffer.from(m.input, 'base64') : m.input);
}

process.on('message', (m) => {
  if (m.t === 'run') run(m);
  else if (m.t === 'kill') running.get(m.id)?.kill('SIGKILL');
});
process.on('disconnect', () => {
  for (const child of running.values()) child.kill('SIGKILL');
  process.exit(0);
});
