import { type Calibration, type CalibrationBody, calibrationDue, calibrationView } from '../domain/calibration.js';
import type { Sensor } from '../domain/sensor.js';
import { InvalidInput, NotFound } from '../core/errors.js';
import type { ServiceDeps } from '../core/service-deps.js';
import { fitCalibration, type FitProblem } from './calibration-fit.js';
import { recordTime } from './record-time.js';

const sensorNotFound = (id: number) => `Sensor ${id} not found`;
const msOrNull = (iso: string | null) => (iso === null ? null : Date.parse(iso));

const PROBLEMS: Record<FitProblem, string> = {
  references_equal: 'With two points or more, the references must not all be equal: no slope can be fitted',
  not_finite: 'The points are too large to fit a line through them',
};

/**
 * Calibrations (docs/api.md §15): recorded with the line fitted through their points; an accepted one
 * newer than the sensor's last moves its `calibrated_at` and when the next is due, in the same
 * transaction, and the sensor is published changed (the calibration_due alert follows it). The
 * service stores and reminds: readings are never rewritten.
 */
export function calibrationService({ store, bus, now }: ServiceDeps) {
  return {
    async record(sensorId: number, body: CalibrationBody, author: string | null): Promise<Calibration> {
      const at = recordTime(body.calibrated_at, now(), ['body', 'calibrated_at']);
      const fit = fitCalibration(body.points);
      if (typeof fit === 'string') throw new InvalidInput({ loc: ['body', 'points'], msg: PROBLEMS[fit], type: fit });
      const done = await store.transaction(async (tx) => {
        // Locked: a concurrent change of its interval or another calibration waits, so the due date follows both.
        await tx.sensors.lock([sensorId]);
        const sensor = await tx.sensors.get(sensorId);
        if (!sensor) throw new NotFound(sensorNotFound(sensorId));
        const calibration = await tx.calibrations.record({
          sensor_id: sensorId,
          calibrated_at: at,
          points: body.points,
          ...fit,
          note: body.note ?? null,
          author,
        });
        const last = msOrNull(sensor.calibrated_at);
        let updated: Sensor | undefined;
        if (fit.accepted && (last === null || at >= last)) {
          const reminder = { intervalDays: sensor.calibration_interval, due: msOrNull(sensor.calibration_due) };
          updated = await tx.sensors.calibrated(sensorId, at, calibrationDue(sensor.calibration_interval, at, reminder, now()));
        }
        return { calibration, updated };
      });
      if (done.updated) bus.publish('sensor', { action: 'updated', sensor: done.updated });
      return calibrationView(done.calibration);
    },

    /** The sensor's calibrations, newest first. */
    async list(sensorId: number, limit: number): Promise<Calibration[]> {
      if (!(await store.sensors.get(sensorId))) throw new NotFound(sensorNotFound(sensorId));
      return (await store.calibrations.list(sensorId, limit)).map(calibrationView);
    },
  };
}

export type CalibrationService = ReturnType<typeof calibrationService>;
