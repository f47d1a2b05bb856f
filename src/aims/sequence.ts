/**
 * Nutrients before pH, one part at a time. Actuators of one prototype with a `dose_order` take
 * turns: an actuator waits (reason `sequenced`) while another in the sequence
 *  - with a lower `dose_order` would dose now (A before B before pH: pH is never dosed while the
 *    nutrients are still correcting),
 *  - holds a claim or is running (never two parts together, whatever their order),
 *  - with a lower `dose_order` was dosed less than its `response_delay` ago (its mixing time: the
 *    next part waits for the tank to settle before it reads the probe),
 * and two doses of different actuators of the sequence are at least `SEQUENCE_PAUSE` apart.
 * Equal orders are ranked by actuator_id, so that two never wait for each other.
 */

export const DEFAULT_SEQUENCE_PAUSE_S = 60;

export interface SequenceMember {
  actuator_id: number;
  dose_order: number;
  /** Whether its own decision, sequencing aside, would dose now. */
  wouldDose: boolean;
  /** Until when a claim or a run holds it (epoch ms); null: none. */
  busyUntil: number | null;
  /** When it was last dosed (epoch ms); null: never. */
  lastDosedAt: number | null;
  /** Seconds of mixing after its dose (its response_delay, else its activation_period). */
  mixing: number;
  /** When its own decision may next change by time alone (null: not by time). */
  changesAt?: number | null;
}

export interface SequenceWait {
  /** The actuator it waits for. */
  actuator_id: number;
  why: 'doses_first' | 'busy' | 'mixing' | 'pause';
  /** When this wait ends by time alone (null: when the other's decision changes). */
  until: number | null;
}

const ahead = (a: SequenceMember, b: { actuator_id: number; dose_order: number }) =>
  a.dose_order < b.dose_order || (a.dose_order === b.dose_order && a.actuator_id < b.actuator_id);

/**
 * Whether `self` waits for another member of its sequence at `now` (the first reason found, in the
 * order above), or null when it may dose. `others` are the prototype's other sequenced actuators.
 * `pauseS` is SEQUENCE_PAUSE in seconds.
 */
export function sequenceWait(
  self: { actuator_id: number; dose_order: number | null },
  others: readonly SequenceMember[],
  now: number,
  pauseS: number = DEFAULT_SEQUENCE_PAUSE_S,
): SequenceWait | null {
  if (self.dose_order === null) return null;
  const me = { actuator_id: self.actuator_id, dose_order: self.dose_order };
  const peers = others.filter((o) => o.actuator_id !== me.actuator_id).sort((a, b) => (ahead(a, b) ? -1 : 1));
  for (const o of peers) {
    if (ahead(o, me) && o.wouldDose) return { actuator_id: o.actuator_id, why: 'doses_first', until: null };
  }
  for (const o of peers) {
    if (o.busyUntil !== null && !(now >= o.busyUntil)) return { actuator_id: o.actuator_id, why: 'busy', until: o.busyUntil };
  }
  for (const o of peers) {
    if (!ahead(o, me) || o.lastDosedAt === null) continue;
    const settled = o.lastDosedAt + o.mixing * 1000;
    if (!(now >= settled)) return { actuator_id: o.actuator_id, why: 'mixing', until: settled };
  }
  let latest: SequenceMember | null = null;
  for (const o of peers) if (o.lastDosedAt !== null && (latest === null || o.lastDosedAt > latest.lastDosedAt!)) latest = o;
  if (latest !== null) {
    const free = latest.lastDosedAt! + pauseS * 1000;
    if (!(now >= free)) return { actuator_id: latest.actuator_id, why: 'pause', until: free };
  }
  return null;
}

/** The status a waiting actuator answers, naming the one it waits for. */
export function sequenceStatus(wait: SequenceWait, name?: string | null): string {
  const who = `actuator ${wait.actuator_id}${name ? ` (${name})` : ''}`;
  switch (wait.why) {
    case 'doses_first':
      return `Sequenced: waiting for ${who}, which doses first`;
    case 'busy':
      return `Sequenced: waiting for ${who}, which is dosing`;
    case 'mixing':
      return `Sequenced: waiting for the dose of ${who} to mix`;
    case 'pause':
      return `Sequenced: pause after the dose of ${who}`;
  }
}
