/**
 * The size of the dose a controller was last told to run, per actuator, so that its run report
 * records what it ran: a proportional dose is not `activation_duration`. Noted when a state read
 * answers `activate: true`; taken by the run report that follows within the dose and a grace.
 * A report with none noted (a controller that decides itself, or a read on another instance)
 * takes the size the decision gives at that moment.
 */

/** How long after the answer a run report still belongs to it, beyond the dose itself. */
export const REPORT_GRACE_MS = 30_000;

export function answeredSizes() {
  const noted = new Map<number, { seconds: number; at: number }>();
  return {
    note(actuatorId: number, seconds: number, at: number): void {
      noted.set(actuatorId, { seconds, at });
    },
    /** The size told for this report, or `otherwise()` when none is noted or it is too old. */
    take(actuatorId: number, at: number, otherwise: () => number): number {
      const entry = noted.get(actuatorId);
      noted.delete(actuatorId);
      if (entry && at >= entry.at && at - entry.at <= entry.seconds * 1000 + REPORT_GRACE_MS) return entry.seconds;
      return otherwise();
    },
    forget(actuatorId: number): void {
      noted.delete(actuatorId);
    },
  };
}
