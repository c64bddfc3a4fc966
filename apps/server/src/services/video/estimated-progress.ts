export interface EstimatedStep {
  /** Percent shown when the step starts. */
  from: number;
  /** Percent the bar approaches but never reaches while the step runs. */
  to: number;
  /** Typical length of the step; the bar is about 63% of the way from `from` to `to` after this long. */
  expectedMs: number;
  /** How often the bar moves (default 1 s). */
  tickMs?: number;
}

/** The percent shown `elapsedMs` into a step: 1 − e^(−t/expected) of the way, whole numbers, below `to`. */
export function estimatedPercent(step: EstimatedStep, elapsedMs: number): number {
  const share = 1 - Math.exp(-Math.max(0, elapsedMs) / step.expectedMs);
  return Math.min(step.to - 1, Math.floor(step.from + (step.to - step.from) * share));
}

/**
 * Runs `work`, a step whose engine cannot report its own progress (the ONNX product cut-out takes 15–60 s), and
 * meanwhile moves the job's progress bar along `estimatedPercent`, so people see it working instead of a bar
 * stuck at its first value. It only moves forward and stops as soon as the step ends; a failed update is ignored
 * because the bar is cosmetic and the runner reports real failures itself.
 */
export async function withEstimatedProgress<T>(
  report: (percent: number) => Promise<void>,
  step: EstimatedStep,
  work: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  let shown = step.from;
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    const next = estimatedPercent(step, Date.now() - started);
    if (next <= shown) return;
    shown = next;
    pending = pending.then(() => report(next)).catch(() => undefined);
  }, step.tickMs ?? 1000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await pending; // never let a late update land after the caller's next progress call
  }
}
