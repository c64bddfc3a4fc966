/**
 * Work several jobs of this process may need at the same moment and that is kept once made (a product's
 * cut-out, a catalogue actor's photoreal picture), keyed by where its result is stored. The first job starts it and
 * the others wait for it instead of paying for it again. A waiting job whose starter failed or was cancelled
 * starts the work itself: one job's cancellation must not fail another.
 */
export class WorkInFlight {
  private readonly running = new Map<string, Promise<unknown>>();

  /** Resolves once `start`'s work for `key` is done, by this caller or by the one already doing it. */
  async join(key: string, start: () => Promise<unknown>): Promise<void> {
    const first = this.joinOrStart(key, start);
    try {
      await first.done;
    } catch (err) {
      if (first.mine) throw err;
      await this.joinOrStart(key, start).done;
    }
  }

  /** How many keys are being worked on (for tests). */
  get size(): number {
    return this.running.size;
  }

  // Check and set with no await in between, so two callers never both start.
  private joinOrStart(key: string, start: () => Promise<unknown>): { done: Promise<unknown>; mine: boolean } {
    const running = this.running.get(key);
    if (running) return { done: running, mine: false };
    const done = start();
    this.running.set(key, done);
    const forget = () => {
      if (this.running.get(key) === done) this.running.delete(key);
    };
    void done.then(forget, forget);
    return { done, mine: true };
  }
}
