/**
 * The sensors waiting for an evaluation, evaluated one at a time in the background — never
 * awaited by the write that queued them. A check only an alarm asked for (time-driven, which one
 * process does for all) is skipped where another process is doing it.
 */
export function evaluationQueue(evaluate: (sensorId: number, skipIfBusy: boolean) => Promise<void>) {
  const queued = new Set<number>();
  /** Queued by an alarm alone. */
  const alarmOnly = new Set<number>();
  let running: Promise<void> | undefined;
  let stopped = false;

  async function drain(): Promise<void> {
    // Let the write that queued the work answer first.
    await new Promise((resolve) => setImmediate(resolve));
    while (!stopped && queued.size > 0) {
      const sensorId = queued.values().next().value as number;
      queued.delete(sensorId);
      await evaluate(sensorId, alarmOnly.delete(sensorId));
    }
    running = undefined;
  }

  return {
    enqueue(sensorId: number, byAlarm = false): void {
      if (stopped) return;
      if (!byAlarm) alarmOnly.delete(sensorId);
      else if (!queued.has(sensorId)) alarmOnly.add(sensorId);
      queued.add(sensorId);
      running ??= drain();
    },

    /** A sensor that is gone. */
    drop(sensorId: number): void {
      queued.delete(sensorId);
    },

    /** Resolves once the evaluations queued so far are done. */
    async idle(): Promise<void> {
      while (running) await running;
    },

    /** Nothing more is queued or started; resolves once the evaluation under way is done. */
    stop(): Promise<void> {
      stopped = true;
      return running ?? Promise.resolve();
    },
  };
}
