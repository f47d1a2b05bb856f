import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { Actuator, Alert, Sensor } from '../api/types';

export interface TankParts {
  sensors: Sensor[];
  actuators: Actuator[];
}

type Subject = Pick<Alert, 'prototype_id' | 'sensor_id' | 'actuator_id'>;

const subjectKey = (alert: Subject) =>
  alert.sensor_id !== null ? `s${alert.sensor_id}` : alert.actuator_id !== null ? `a${alert.actuator_id}` : null;

/**
 * The sensors and pumps of the tanks the alerts are about, read once per tank and again when an
 * alert names one not read yet (a pump added since): an alert of any tank is then named by the
 * grower's names ("Acid pump", "Tank level") rather than an id. A tank that cannot be read is left
 * out; its alerts keep their ids.
 */
export function useTankParts(alerts: readonly Subject[]): TankParts {
  const [byTank, setByTank] = useState<Map<number, TankParts>>(new Map());
  /** The subjects a read was already asked for: one that is gone is not asked for again and again. */
  const asked = useRef(new Set<string>());
  const known = new Set<string>();
  for (const parts of byTank.values()) {
    for (const s of parts.sensors) known.add(`s${s.sensor_id}`);
    for (const a of parts.actuators) known.add(`a${a.actuator_id}`);
  }
  const stale = new Set<number>();
  for (const alert of alerts) {
    const key = subjectKey(alert);
    if (alert.prototype_id === null || key === null || known.has(key) || asked.current.has(key)) continue;
    stale.add(alert.prototype_id);
  }
  const tanks = [...stale].sort((a, b) => a - b);
  const wanted = tanks.join(',');
  useEffect(() => {
    if (tanks.length === 0) return;
    for (const alert of alerts) {
      const key = subjectKey(alert);
      if (key !== null && alert.prototype_id !== null && stale.has(alert.prototype_id)) asked.current.add(key);
    }
    // Never dropped: a later read of other tanks merges beside it.
    void Promise.all(
      tanks.map(async (id) => {
        const [sensors, actuators] = await Promise.all([api.sensors(id).catch(() => []), api.actuators(id).catch(() => [])]);
        return [id, { sensors, actuators }] as const;
      }),
    ).then((read) => {
      setByTank((before) => new Map([...before, ...read]));
    });
  }, [wanted]);
  const parts = [...byTank.values()];
  return { sensors: parts.flatMap((p) => p.sensors), actuators: parts.flatMap((p) => p.actuators) };
}
