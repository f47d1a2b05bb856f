import type { Actuator } from '../domain/actuator.js';
import type { StoredActuator, StoredInterlock } from '../store/index.js';

/** An actuator row with its interlocks, in their order: what the services answer. */
export type ActuatorWithInterlocks = StoredActuator & { interlocks: readonly StoredInterlock[] };

/**
 * The actuator as the API answers it (docs/api.md §3, §14): times as ISO text, the lockout as one
 * read-only object, `last_polled` as stored or as noted since (whichever is later: the caller
 * passes it in the row). The service's own bookkeeping (the count of unanswered doses) stays inside.
 */
export function actuatorView(a: ActuatorWithInterlocks): Actuator {
  const {
    lockout_since,
    lockout_reason,
    lockout_kind: _kind,
    usual_since: _usualSince,
    unanswered_streak: _streak,
    // The claim's bookkeeping (claims/): shown through the decision (`claimed`) and the doses.
    claim_until: _claimUntil,
    claim_activation_id: _claimDose,
    manual_run_seconds: _manualRun,
    interlocks,
    last_activated,
    last_polled,
    ...settings
  } = a;
  return {
    ...settings,
    last_activated: new Date(last_activated).toISOString(),
    interlocks: interlocks.map(({ sensor_id, block_below, block_above }) => ({ sensor_id, block_below, block_above })),
    lockout: lockout_since === null ? null : { since: new Date(lockout_since).toISOString(), reason: lockout_reason ?? '' },
    last_polled: last_polled === null || last_polled === undefined ? null : new Date(last_polled).toISOString(),
  };
}
