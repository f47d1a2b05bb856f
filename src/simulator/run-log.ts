/** What a run records, in epoch milliseconds of the run's clock; the scorecard is computed from it. */
export interface RunLog {
  scenario: string;
  startMs: number;
  endMs: number;
  /** The pH band the crop wants (the true pH is judged against it, not the probe's). */
  band: { low: number; high: number };
  /** Millilitres a second of the pump, when known. */
  flowMlPerSecond: number | null;
  /** Every reading posted: the true pH and what the probe said. */
  samples: { at: number; truePh: number; probePh: number }[];
  /** Every pump run a controller made (and reported); `controller` when more than one polls the pump. */
  doses: { at: number; seconds: number; controller?: number }[];
  /** The controller's decisions, each time the answer changed. */
  decisions: { at: number; activate: boolean; status: string; reason: string | null }[];
  /** The alerts of the prototype at the end of the run. */
  alerts: { raisedAt: number; kind: string; severity: string; sensorId: number | null; actuatorId: number | null }[];
  /** The controller's last state read before it died (a dead-controller run). */
  controllerLastSeenAt: number | null;
  /** When the service was restarted (a restart run). */
  restartedAt: number | null;
  /** State reads answered `claimed` (another controller's run was under way). */
  claimedAnswers: number;
}

export function emptyLog(scenario: string, startMs: number, band: RunLog['band'], flowMlPerSecond: number | null): RunLog {
  return {
    scenario,
    startMs,
    endMs: startMs,
    band,
    flowMlPerSecond,
    samples: [],
    doses: [],
    decisions: [],
    alerts: [],
    controllerLastSeenAt: null,
    restartedAt: null,
    claimedAnswers: 0,
  };
}

/** The prototype's alerts as the service lists them (`GET /alerts?state=all`), into the log's form. */
export interface ApiAlert {
  raised_at: string;
  kind: string;
  severity: string;
  sensor_id?: number | null;
  actuator_id?: number | null;
}

export function alertsFromApi(list: readonly ApiAlert[]): RunLog['alerts'] {
  return list
    .map((alert) => ({
      raisedAt: Date.parse(alert.raised_at),
      kind: String(alert.kind),
      severity: String(alert.severity),
      sensorId: alert.sensor_id ?? null,
      actuatorId: alert.actuator_id ?? null,
    }))
    .sort((a, b) => a.raisedAt - b.raisedAt);
}
