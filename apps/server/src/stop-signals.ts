/**
 * Runs `stop` once on the first SIGINT or SIGTERM (a second signal while stopping is ignored), then exits: 0 when
 * it finished, 1 when it threw.
 * Both entry points (API and worker) stop this way, so an orchestrator's SIGTERM always drains the process.
 */
export function onStopSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
