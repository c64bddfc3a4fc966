/**
 * A job's log as a person reads it: one line per stage with how long it took ('Rendering the video — 6.3 s'),
 * not one line per progress tick. A stage is open until the next line arrives; repeats of the open stage's text
 * (a handler reporting progress within it) add nothing.
 */
export class StageLog {
  private lines: string[];
  private open: { text: string; startedAt: number } | null = null;

  constructor(
    initial: readonly string[],
    private readonly max: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.lines = [...initial];
  }

  /** Starts a stage (closing the open one with its duration); false when `text` is the open stage again. */
  stage(text: string): boolean {
    if (this.open?.text === text) return false;
    this.close();
    this.push(text);
    this.open = { text, startedAt: this.clock() };
    return true;
  }

  /** A plain line (no duration), after closing the open stage. */
  note(text: string): void {
    this.close();
    this.push(text);
  }

  /** A line that belongs to the open stage (e.g. what a provider call cost): placed before it, the stage stays open. */
  aside(text: string): void {
    if (!this.open) {
      this.push(text);
      return;
    }
    const openLine = this.lines[this.lines.length - 1] as string;
    this.lines = [...this.lines.slice(0, -1), text, openLine].slice(-this.max);
  }

  /** Closes the open stage: its line gets the time it took. */
  close(): void {
    if (!this.open) return;
    const seconds = (this.clock() - this.open.startedAt) / 1000;
    const done = this.open;
    this.open = null;
    // A line that took no measurable time is a milestone ('Video ready'), not a stage: it keeps its words.
    if (seconds < 0.1) return;
    // The open stage is always the last line: nothing is pushed while it is open without closing it first.
    this.lines[this.lines.length - 1] = `${done.text} — ${formatSeconds(seconds)}`;
  }

  /** The lines so far, with `extra` lines after them (e.g. the closing 'Completed'). */
  snapshot(...extra: string[]): string[] {
    return [...this.lines, ...extra].slice(-this.max);
  }

  private push(text: string): void {
    this.lines = [...this.lines, text].slice(-this.max);
  }
}

const formatSeconds = (s: number): string =>
  s < 10 ? `${s.toFixed(1)} s` : s < 120 ? `${Math.round(s)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
