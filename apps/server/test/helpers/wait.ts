/**
 * Polls `probe` until it returns a truthy value; throws after `timeoutMs`. A probe that throws counts as "not
 * yet": in fault tests requests fail while a service is down, and the wait is for it to come back.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 40_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > until) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
