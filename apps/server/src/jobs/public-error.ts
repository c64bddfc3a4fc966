import { dependencyFailure } from '../errors.ts';

/** Absolute paths (with an optional file:// in front), however deep: what a person must never see of our disks. */
const ABSOLUTE_PATH = /(?:file:\/\/)?(?<![\w.])\/(?:[\w.@+~-]+\/)+[\w.@+~-]*/g;

/**
 * The text a job's card and logs show for a failure: plain words, never a server path, a stack or a program's
 * stderr. The full error goes to the server log (the executor logs it) — this is only what the person sees.
 */
export function publicJobError(err: unknown): string {
  const failure = dependencyFailure(err);
  if (failure === 'storage-full') {
    return `The server ran out of storage space (${(err as { code?: string }).code ?? 'ENOSPC'})`;
  }
  if (failure === 'unavailable') return 'A service this job needs was unavailable; it will be tried again';
  const e = err as { name?: unknown; message?: unknown; code?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (e?.name === 'ProcessError') {
    // "<program> exited with <code>: <stderr tail>": keep the program's name and the code, drop the tail.
    const m = /^(\S+) exited with (\S+?):?(?:\s|$)/.exec(message);
    const program = m?.[1]?.split('/').pop() ?? 'A helper program';
    return `${program} failed while rendering${m?.[2] ? ` (exit code ${m[2]})` : ''}`;
  }
  // Node's system errors (ENOENT, EACCES…) name files on our disk in their message.
  if (typeof e?.code === 'string' && /^E[A-Z]{2,}$/.test(e.code)) {
    return `The server could not read or write a file this job needed (${e.code})`;
  }
  const firstLine = message.split('\n')[0] ?? '';
  return firstLine.replace(ABSOLUTE_PATH, '…').trim().slice(0, 300) || 'Something went wrong while processing this job';
}
