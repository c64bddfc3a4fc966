import { execFileSync } from 'node:child_process';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * A directory whose disk can be made full, for real, on any Linux machine:
 * - `tmpfs`: where this process may mount (root with CAP_SYS_ADMIN), a small tmpfs is mounted on the directory
 *   and filled to the last byte, so every write there fails with ENOSPC, exactly as on a full disk;
 * - `rlimit`: elsewhere (an unprivileged CI container), this process's file-size limit (RLIMIT_FSIZE, which
 *   any process may lower for itself, and raise back up to its hard limit) is set below the size of what the
 *   test writes; the kernel then fails those writes with EFBIG ("File too large"; Node ignores SIGXFSZ). It
 *   applies to every file this process writes past that offset, so the limit sits above the database's size.
 * HOOKREEL_FAULTS_DISK=rlimit forces the second way where the first would work, to exercise it.
 */
export interface FillableDisk {
  readonly kind: 'tmpfs' | 'rlimit';
  /** The error code a write gets while full. */
  readonly code: 'ENOSPC' | 'EFBIG';
  /** Make it full: no write of `minBytes` or more succeeds under the directory until free(). */
  fill(): Promise<void>;
  free(): Promise<void>;
  close(): Promise<void>;
}

const canMountTmpfs = (dir: string): boolean => {
  if (process.env.HOOKREEL_FAULTS_DISK === 'rlimit' || process.platform !== 'linux') return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0755', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * `dir` must exist and be empty. `limitBytes` (rlimit way only): the per-file limit while full; choose it above
 * every file the process must keep writing (database, WAL) and below the uploads/outputs that must fail.
 */
export async function fillableDisk(dir: string, limitBytes: number): Promise<FillableDisk> {
  await mkdir(dir, { recursive: true });
  if (canMountTmpfs(dir)) {
    const filler = path.join(dir, '.filler');
    return {
      kind: 'tmpfs',
      code: 'ENOSPC',
      async fill() {
        const fh = await open(filler, 'w');
        const block = Buffer.alloc(64 * 1024, 1);
        try {
          for (;;) await fh.write(block);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        } finally {
          await fh.close();
        }
        // A write into the last free page comes back short and the next one fails: the disk is full to the page.
      },
      async free() {
        await rm(filler, { force: true });
      },
      async close() {
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      },
    };
  }
  const pid = String(process.pid);
  const soft = () =>
    execFileSync('prlimit', ['--pid', pid, '--fsize', '--output=SOFT', '--noheadings', '--raw'], {
      encoding: 'utf8',
    }).trim();
  const original = soft();
  const setSoft = (value: string) => execFileSync('prlimit', ['--pid', pid, `--fsize=${value}:`], { stdio: 'ignore' });
  return {
    kind: 'rlimit',
    code: 'EFBIG',
    async fill() {
      setSoft(String(limitBytes));
    },
    async free() {
      setSoft(original);
    },
    async close() {
      setSoft(original);
    },
  };
}
