import type { ChangeBus } from '../core/bus.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';
import { isRelayed } from '../events/postgres-relay.js';
import type { Store } from '../store/index.js';
import { sensorAlarms } from './alarms.js';
import type { EvaluationSettings } from './evaluate.js';
import { sensorEvaluation } from './evaluation.js';
import { evaluationQueue } from './evaluation-queue.js';
import { following } from './following.js';
import { watchAll } from './watch-start.js';
import { forNewestOfEach, newWatched, type SensorLimits, type Watched } from './watched.js';

export interface AlertWatcherDeps {
  store: Pick<Store, 'transaction' | 'sensors' | 'measurements' | 'alerts'>;
  bus: ChangeBus;
  now: () => number;
  timers: Timers;
  settings: EvaluationSettings;
  log: Logger;
}

/**
 * Keeps every sensor's alerts (§11) up to date. Each committed batch costs, per sensor, a
 * comparison in memory with the newest measurement and level known here; only a change of level
 * (or a new value while an alert is active) queues an evaluation, which reads the committed rows
 * in a transaction of its own (evaluate.ts) — never awaited by the write that caused it.
 * Time-driven changes come from one alarm per sensor (alarms.ts): no sweep over all sensors.
 *
 * With several instances, the one that committed a change evaluates it; the others follow the
 * newest values and alerts in memory (for their alarms). Alarms ring on every instance, and the
 * evaluation's row lock and idempotence make the change happen once.
 */
export function alertWatcher({ store, bus, now, timers, settings, log }: AlertWatcherDeps) {
  const watched = new Map<number, Watched>();
  let stopped = false;
  const unsubscribe: (() => void)[] = [];

  const track = (sensorId: number, prototypeId: number, thresholds: SensorLimits): Watched => {
    const w = newWatched(prototypeId, thresholds);
    watched.set(sensorId, w);
    return w;
  };
  const forget = (sensorId: number): void => {
    const w = watched.get(sensorId);
    if (w) alarms.clear(w);
    watched.delete(sensorId);
    queue.drop(sensorId);
  };
  const enqueue = (sensorId: number) => queue.enqueue(sensorId);
  const alarms = sensorAlarms({ timers, now, settings, stopped: () => stopped, due: (sensorId) => queue.enqueue(sensorId, true) });
  const evaluate = sensorEvaluation({ store, bus, now, timers, settings, log, watched, track, forget, alarms, enqueue });
  const queue = evaluationQueue(evaluate);
  const follow = following({ now, watched, track, forget, alarms, enqueue });

  return {
    /** Reads the sensors, their newest measurements, levels and active alerts; evaluates what changed while stopped. */
    async start(): Promise<void> {
      unsubscribe.push(
        bus.subscribe('measurements', (change) => {
          const relayed = isRelayed(change);
          forNewestOfEach(change.rows, (row) => follow.newestMeasured(row, relayed));
        }),
        bus.subscribe('measurementDeleted', ({ measurement }) => follow.measurementDeleted(measurement)),
        bus.subscribe('generated', (change) => follow.generated(change.sensorIds, isRelayed(change))),
        bus.subscribe('sensor', (change) =>
          change.action === 'deleted' ? forget(change.sensorId) : follow.sensorChanged(change.sensor, isRelayed(change)),
        ),
        bus.subscribe('prototype', (change) => {
          if (change.action === 'deleted') follow.prototypeDeleted(change.prototypeId);
        }),
        bus.subscribe('alert', follow.heard),
      );
      await watchAll({ store, now, settings, watched, track, alarms, enqueue });
    },

    /** Resolves once the evaluations queued so far are done (tests, and a clean stop). */
    idle: () => queue.idle(),

    async stop(): Promise<void> {
      stopped = true;
      const drained = queue.stop();
      for (const stop of unsubscribe) stop();
      await drained;
      for (const w of watched.values()) alarms.clear(w);
      watched.clear();
    },
  };
}

export type AlertWatcher = ReturnType<typeof alertWatcher>;
