import { calibrationDue } from '../domain/calibration.js';
import { settingsChanges } from '../core/settings-changes.js';
import { thresholdsInOrder } from '../domain/thresholds.js';
import { type Sensor, SensorBase, type SensorPatch } from '../domain/sensor.js';
import { patchAll } from '../core/bulk-patch.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { InvalidInput, NotFound } from '../core/errors.js';
import { publishRemoved } from '../core/cascade.js';
import { removalRefused } from '../core/removal-refused.js';

const SENSOR_FIELDS = Object.keys(SensorBase.properties) as (keyof SensorBase)[];

function thresholdsOutOfOrder(loc: (string | number)[]): InvalidInput {
  return new InvalidInput({ loc, msg: 'Thresholds must satisfy critically_low ≤ low ≤ high ≤ critically_high', type: 'thresholds_order' });
}

/** valid_min > valid_max would make every reading invalid (docs/api.md §14). */
const validRangeCrossed = (s: Pick<SensorBase, 'valid_min' | 'valid_max'>) =>
  s.valid_min !== undefined && s.valid_min !== null && s.valid_max !== undefined && s.valid_max !== null && s.valid_min > s.valid_max;

function validRangeCrossedIssue(loc: (string | number)[]): InvalidInput {
  return new InvalidInput({ loc: [...loc, 'valid_min'], msg: 'valid_min must be ≤ valid_max', type: 'valid_range_order' });
}

const msOrNull = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** When the sensor's next calibration falls due after a change of its settings (`before`: as it was, if it existed). */
function dueAfter(sensor: Pick<Sensor, 'calibration_interval' | 'calibrated_at'>, before: Sensor | undefined, now: number): number | null {
  const reminder = { intervalDays: before?.calibration_interval ?? null, due: msOrNull(before?.calibration_due ?? null) };
  return calibrationDue(sensor.calibration_interval ?? null, msOrNull(sensor.calibrated_at ?? null), reminder, now);
}

export function sensorService({ store, bus, now }: ServiceDeps) {
  return {
    /** Registers a sensor on an existing prototype. */
    async create(sensor: SensorBase): Promise<Sensor> {
      if (!thresholdsInOrder(sensor)) throw thresholdsOutOfOrder(['body']);
      if (validRangeCrossed(sensor)) throw validRangeCrossedIssue(['body']);
      // The check and the insert share a transaction, so a concurrent change cannot slip between them.
      const created = await store.transaction(async (tx) => {
        if (!(await tx.prototypes.exists(sensor.prototype_id))) throw new NotFound(`Prototype ${sensor.prototype_id} not found`);
        return tx.sensors.create(
          sensor,
          dueAfter({ calibration_interval: sensor.calibration_interval ?? null, calibrated_at: null }, undefined, now()),
        );
      });
      bus.publish('sensor', { action: 'created', sensor: created });
      return created;
    },

    async listByPrototype(prototypeId: number): Promise<Sensor[]> {
      if (!(await store.prototypes.exists(prototypeId))) throw new NotFound(`Prototype ${prototypeId} not found`);
      return store.sensors.listByPrototype(prototypeId);
    },

    /**
     * Deletes the sensor; while it has measurements or actuators, or actuators use it as an
     * interlock, only with `cascade`, which deletes them with it (and disables the actuators
     * whose interlock it was). Each actuator disabled or deleted is told of, then the sensor.
     */
    async remove(sensorId: number, cascade: boolean): Promise<void> {
      const result = await store.remove.sensor(sensorId, cascade);
      if (result.status === 'missing') throw new NotFound(`Sensor ${sensorId} not found`);
      if (result.status === 'has-dependents') throw removalRefused(`Sensor ${sensorId}`, result.dependents);
      publishRemoved(bus, result);
    },

    /**
     * Partial bulk update, all or nothing; thresholds are checked on the merged result. A changed
     * calibration_interval moves when the next calibration falls due. Each change is audited with
     * `author` (null in open mode): the fields changed, from and to.
     */
    async patch(patches: readonly SensorPatch[], author: string | null = null): Promise<Sensor[]> {
      const updated = await store.transaction((tx) => {
        const read = new Map<number, Sensor>();
        return patchAll<Sensor, SensorPatch>(patches, {
          idOf: (patch) => patch.sensor_id,
          fields: SENSOR_FIELDS,
          rows: {
            lock: tx.sensors.lock,
            async get(id) {
              const sensor = await tx.sensors.get(id);
              if (sensor) read.set(id, sensor);
              return sensor;
            },
            update: (merged) => tx.sensors.update(merged, dueAfter(merged, read.get(merged.sensor_id), now())),
          },
          notFound: (id) => `Sensor ${id} not found`,
          check: (merged, index) => {
            if (!thresholdsInOrder(merged)) throw thresholdsOutOfOrder(['body', index]);
            if (validRangeCrossed(merged)) throw validRangeCrossedIssue(['body', index]);
          },
          parent: { field: 'prototype_id', exists: tx.prototypes.exists, notFound: (id) => `Prototype ${id} not found` },
          audit: async (before, after) => {
            const changes = settingsChanges(before, after, SENSOR_FIELDS);
            if (changes.length === 0) return;
            await tx.settingsChanges.record({
              at: now(),
              prototype_id: after.prototype_id,
              actuator_id: null,
              sensor_id: after.sensor_id,
              author,
              changes: JSON.stringify(changes),
            });
          },
        });
      });
      for (const sensor of updated) bus.publish('sensor', { action: 'updated', sensor });
      return updated;
    },
  };
}

export type SensorService = ReturnType<typeof sensorService>;
