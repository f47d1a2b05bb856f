import { MAX_ID } from '../domain/schema-common.js';

/** The topics of §12 under one prefix: what the service subscribes to and publishes on. */
export function topicsOf(prefix: string) {
  return {
    /** Subscribed: devices publish measurements here. */
    measurementsFilter: `${prefix}/sensors/+/measurements`,
    /** Subscribed: a controller reports a run here. */
    activatedFilter: `${prefix}/actuators/+/activated`,
    last: (sensorId: number) => `${prefix}/sensors/${sensorId}/last`,
    state: (actuatorId: number) => `${prefix}/actuators/${actuatorId}/state`,
    /** Each dose recorded (§15), not retained. */
    doses: (actuatorId: number) => `${prefix}/actuators/${actuatorId}/doses`,
    alerts: `${prefix}/alerts`,
    errors: `${prefix}/errors`,
  };
}

export type Topics = ReturnType<typeof topicsOf>;

/** What a message received on one of the subscribed topics is about. */
export type Addressed =
  | { kind: 'measurements'; sensorId: number }
  | { kind: 'activated'; actuatorId: number }
  /** A subscribed topic whose id is not an identifier (`sensors/abc/measurements`): the reason says so. */
  | { kind: 'bad-id'; reason: string }
  | { kind: 'other' };

/**
 * The id in `<prefix>/sensors/<id>/measurements` or `<prefix>/actuators/<id>/activated`, as the
 * contract's path ids: a whole number in 0 .. 2^31-1, in plain digits.
 */
export function addressOf(prefix: string, topic: string): Addressed {
  if (!topic.startsWith(`${prefix}/`)) return { kind: 'other' };
  const levels = topic.slice(prefix.length + 1).split('/');
  if (levels.length !== 3) return { kind: 'other' };
  const [collection, id, action] = levels;
  const kind =
    collection === 'sensors' && action === 'measurements'
      ? 'measurements'
      : collection === 'actuators' && action === 'activated'
        ? 'activated'
        : undefined;
  if (!kind) return { kind: 'other' };
  const noun = kind === 'measurements' ? 'sensor' : 'actuator';
  if (!/^\d{1,10}$/.test(id) || Number(id) > MAX_ID) {
    return { kind: 'bad-id', reason: `the ${noun} id in the topic must be a whole number from 0 to ${MAX_ID}, got "${id.slice(0, 40)}"` };
  }
  return kind === 'measurements' ? { kind, sensorId: Number(id) } : { kind, actuatorId: Number(id) };
}
