/**
 * Counts events per key (an address, an account, a client IP) in a sliding window and says how long a key
 * must wait once it had `max` of them. Used for failures (a short lockout after repeated wrong passwords or
 * codes) and for costly actions (mails sent). In process memory: with N API processes each keeps its own
 * counts, so the effective limit is up to N times higher (docs/security.md).
 */
export class AttemptLimiter {
  private readonly events = new Map<string, number[]>();
  private recorded = 0;

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Milliseconds until the key may act again; 0 when it may now. */
  blockedFor(key: string, at = Date.now()): number {
    const list = this.live(key, at);
    if (list.length < this.max) return 0;
    // Free again once the oldest of the last `max` events leaves the window.
    return (list[list.length - this.max] ?? at) + this.windowMs - at;
  }

  record(key: string, at = Date.now()): void {
    if (++this.recorded % 1000 === 0 || this.events.size >= this.maxKeys) this.sweep(at);
    const list = this.live(key, at);
    list.push(at);
    // Only the newest `max` events matter for the answer.
    if (list.length > this.max) list.splice(0, list.length - this.max);
    this.events.set(key, list);
  }

  clear(key: string): void {
    this.events.delete(key);
  }

  private live(key: string, at: number): number[] {
    const list = this.events.get(key);
    if (!list) return [];
    const fresh = list.filter((t) => t > at - this.windowMs);
    if (fresh.length === 0) this.events.delete(key);
    return fresh;
  }

  private sweep(at: number): void {
    for (const key of [...this.events.keys()]) this.live(key, at);
    // Still full of live keys (a flood of distinct addresses): forget the oldest rather than grow without bound.
    if (this.events.size >= this.maxKeys) {
      const drop = this.events.size - Math.floor(this.maxKeys * 0.9);
      let i = 0;
      for (const key of this.events.keys()) {
        if (i++ >= drop) break;
        this.events.delete(key);
      }
    }
  }
}

const MINUTE = 60_000;

/** Every limit of the sign-in area (docs/security.md lists them); one set per app. */
export function createSignInLimits(config: { registerRateLimit: number; signInMailRateLimit: number }) {
  return {
    /** Wrong passwords per address: 5 in 15 minutes locks the address for the rest of the window. */
    loginFailuresPerAddress: new AttemptLimiter(5, 15 * MINUTE),
    /** Wrong passwords per client, across addresses (password spraying). */
    loginFailuresPerClient: new AttemptLimiter(20, 15 * MINUTE),
    /** Accounts created per client. */
    registrationsPerClient: new AttemptLimiter(config.registerRateLimit, 60 * MINUTE),
    /** Sign-in and verification mails per address, so nobody's inbox is flooded. */
    mailsPerAddress: new AttemptLimiter(5, 15 * MINUTE),
    /** Sign-in mails per client, across addresses. */
    mailsPerClient: new AttemptLimiter(config.signInMailRateLimit, 15 * MINUTE),
    /** Wrong sign-in codes per client (each code also dies after 5 wrong guesses). */
    codeFailuresPerClient: new AttemptLimiter(20, 15 * MINUTE),
  };
}
export type SignInLimits = ReturnType<typeof createSignInLimits>;

const byApp = new WeakMap<object, SignInLimits>();

/** The limits of one app context (a WeakMap, so tests' many servers never share counts). */
export function signInLimitsOf(owner: { config: Parameters<typeof createSignInLimits>[0] }): SignInLimits {
  let limits = byApp.get(owner);
  if (!limits) byApp.set(owner, (limits = createSignInLimits(owner.config)));
  return limits;
}

export const minutesOf = (ms: number): number => Math.max(1, Math.ceil(ms / MINUTE));
