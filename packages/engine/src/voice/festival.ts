import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WordTiming } from '../types.ts';
import { abortError, runProcess, spawnTracked } from '../util/process.ts';

export const FESTIVAL_VOICES = {
  femaleAmerican: 'cmu_us_slt_arctic_hts',
  maleAmerican: 'kal_diphone',
  maleBritish: 'rab_diphone',
} as const;
export type FestivalVoice = (typeof FESTIVAL_VOICES)[keyof typeof FESTIVAL_VOICES];

const schemeString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * English speech through festival. The Scheme script synthesises the text, saves the wave and prints, for each
 * text token (so "7" stays "7" in captions although it is spoken as "seven"), the start of its first word and
 * the latest end of its words (a token ending in punctuation has the punctuation as a last daughter with no
 * segments, whose end reads 0: the word before a pause then lasted 0.05 s in captions and mouth). A festival already running with the voice loaded says it when one is free (loading the
 * voice is a third of a one-shot run's CPU); otherwise, or if that session fails, a one-shot `festival -b` does
 * (decision 099).
 */
export async function festivalSpeak(
  text: string,
  voice: FestivalVoice,
  outWav: string,
  signal?: AbortSignal,
): Promise<WordTiming[]> {
  const body = speakScript(text, outWav);
  const session = takeSession(voice, heapFor(text));
  if (session) {
    try {
      const words = parseFestivalTokens(await session.run(body, signal));
      // An empty answer for a non-empty text means the form failed in the session: the one-shot run says it
      // again (and fails the same way, with its error, if it must).
      if (words.length > 0 || !text.trim()) {
        releaseSession(session);
        return words;
      }
    } catch (e) {
      session.close();
      if (signal?.aborted) throw e;
    }
    session.close();
  }
  const script = path.join(path.dirname(outWav), `${path.basename(outWav, '.wav')}.scm`);
  await writeFile(script, `(voice_${voice})\n${body}`);
  const { stdout } = await runProcess('festival', ['-b', script], { timeoutMs: 120_000, signal });
  return parseFestivalTokens(stdout);
}

/**
 * Festival builds its whole Lisp heap when it starts: the default 10 million cells (~320 MB) cost a session
 * ~0.8 s of CPU, four times the synthesis of a 10-second line, and the output does not depend on it. A line of
 * everyday length needs a tenth of it (measured: 800 characters of prose fit 1 million cells without extra
 * garbage collection, 1,200 do not; digits are spoken as several words each). Such lines are said by sessions
 * started with the small heap; longer or digit-heavy lines by sessions with the default (decision 161). A line
 * that still runs out of storage answers nothing, and the one-shot run, on the default heap, says it.
 */
export const SMALL_HEAP = { cells: 1_000_000, maxChars: 600, maxDigits: 24 } as const;
export type FestivalHeap = 'small' | 'default';

export function heapFor(text: string): FestivalHeap {
  const digits = text.replace(/[^0-9]/g, '').length;
  return text.length <= SMALL_HEAP.maxChars && digits <= SMALL_HEAP.maxDigits ? 'small' : 'default';
}

/** Sessions per voice and heap: as many as renders run at once on a worker. */
const MAX_SESSIONS_PER_VOICE = 2;
/** A session unused this long ends (its process exits). */
const SESSION_IDLE_MS = 20_000;

/**
 * A festival process reading Scheme from its stdin (`--pipe`) with one voice loaded. Each request ends with a
 * marker line, flushed (`(fflush nil)`: a pipe is otherwise written only when festival exits), so its answer is
 * what stdout carried before the marker.
 */
class FestivalSession {
  private readonly child: ReturnType<typeof spawnTracked>;
  private out = '';
  private waiting: { marker: string; done: (out: string) => void; fail: (e: Error) => void } | null = null;
  private exited = false;
  private idle: NodeJS.Timeout | null = null;
  busy = false;

  constructor(
    readonly voice: FestivalVoice,
    readonly heap: FestivalHeap,
  ) {
    this.child = spawnTracked('festival', [
      ...(heap === 'small' ? ['--heap', String(SMALL_HEAP.cells)] : []),
      '--pipe',
    ]);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (c: string) => {
      this.out += c;
      const w = this.waiting;
      const at = w ? this.out.indexOf(w.marker) : -1;
      if (w && at >= 0) {
        const answer = this.out.slice(0, at);
        this.out = this.out.slice(at + w.marker.length);
        this.waiting = null;
        w.done(answer);
      }
    });
    this.child.stderr.resume();
    this.child.stdin.on('error', () => {
      /* the exit handler reports it */
    });
    this.child.on('exit', () => {
      this.exited = true;
      forget(this);
      this.waiting?.fail(new Error('festival exited'));
      this.waiting = null;
    });
    this.child.stdin.write(`(voice_${voice})\n`);
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** A parked session must not keep a finished program running; a working one must. */
  private hold(on: boolean): void {
    const handles = [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as unknown as Array<{
      ref(): void;
      unref(): void;
    }>; // ChildProcess and its pipe sockets all have ref/unref; the stream types do not say so.
    for (const h of handles)
      if (on) h.ref();
      else h.unref();
  }

  run(body: string, signal?: AbortSignal, timeoutMs = 120_000): Promise<string> {
    if (this.idle) clearTimeout(this.idle);
    this.hold(true);
    const marker = `END-${Math.random().toString(36).slice(2)}\n`;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`festival timed out after ${timeoutMs} ms`)), timeoutMs);
      const onAbort = () => fail(abortError(signal));
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const fail = (e: Error) => {
        settle();
        this.waiting = null;
        reject(e);
      };
      if (signal?.aborted) return fail(abortError(signal));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = {
        marker,
        done: (out) => {
          settle();
          resolve(out);
        },
        fail,
      };
      this.child.stdin.write(`${body}\n(format t "${marker.trim()}\\n")\n(fflush nil)\n`);
    });
  }

  /** Waits for the next request; ends the process after SESSION_IDLE_MS without one. */
  park(): void {
    this.busy = false;
    this.hold(false);
    this.idle = setTimeout(() => this.close(), SESSION_IDLE_MS);
    this.idle.unref();
  }

  close(): void {
    if (this.idle) clearTimeout(this.idle);
    forget(this);
    if (!this.exited) this.child.kill('SIGKILL');
  }

  /** Ends the process and resolves once it has exited (so its CPU time is counted as a finished child's). */
  async end(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.hold(true);
    this.close();
    await gone;
  }
}

const sessions = new Set<FestivalSession>();
const forget = (s: FestivalSession) => sessions.delete(s);

/** A free session with the voice loaded on that heap (started if there are fewer than the limit), or null. */
function takeSession(voice: FestivalVoice, heap: FestivalHeap): FestivalSession | null {
  const mine = [...sessions].filter((s) => s.voice === voice && s.heap === heap);
  let free = mine.find((s) => !s.busy && s.alive) ?? null;
  if (!free && mine.length < MAX_SESSIONS_PER_VOICE) {
    free = new FestivalSession(voice, heap);
    sessions.add(free);
  }
  if (free) free.busy = true;
  return free;
}

function releaseSession(s: FestivalSession): void {
  if (s.alive) s.park();
}

/**
 * Ends every festival session and waits for the processes to exit: a benchmark calls it before reading its
 * children's CPU time, which counts finished children only.
 */
export async function closeFestivalSessions(): Promise<void> {
  await Promise.all([...sessions].map((s) => s.end()));
}

/**
 * The Scheme that says `text` into `outWav` and prints each token's timing as a `T` line (parseFestivalTokens),
 * for a session or a one-shot `festival -b`.
 */
export function speakScript(text: string, outWav: string): string {
  return `(set! utt1 (Utterance Text ${schemeString(text)}))
(utt.synth utt1)
(utt.save.wave utt1 ${schemeString(outWav)} 'riff)
(mapcar
  (lambda (tok)
    (let ((ws (item.daughters tok)) (e 0))
      (if ws
        (begin
          (mapcar (lambda (w) (if (> (item.feat w "word_end") e) (set! e (item.feat w "word_end")))) ws)
          (format t "T\\t%s\\t%s\\t%s\\t%f\\t%f\\n"
            (item.feat tok "prepunctuation") (item.name tok) (item.feat tok "punc")
            (item.feat (car ws) "word_start") e)))))
  (utt.relation.items utt1 'Token))
`;
}

/** Parses the `T\tpre\tname\tpunc\tstart\tend` lines; festival prints 0 for an absent punctuation feature. */
export function parseFestivalTokens(stdout: string): WordTiming[] {
  const out: WordTiming[] = [];
  for (const line of stdout.split('\n')) {
    const f = line.split('\t');
    if (f[0] !== 'T' || f.length < 6) continue;
    const pre = f[1] === '0' ? '' : (f[1] ?? '');
    const punc = f[3] === '0' ? '' : (f[3] ?? '');
    const startSec = Number(f[4]);
    const endSec = Number(f[5]);
    if (!Number.isFinite(startSec) || !Number.isFinite(endSec)) continue;
    out.push({ word: `${pre}${f[2]}${punc}`, startSec, endSec: Math.max(endSec, startSec + 0.05) });
  }
  return out;
}
