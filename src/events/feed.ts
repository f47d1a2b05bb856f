import { activationJson, measurementJson } from '../core/json-text.js';
import type { Sensor } from '../domain/sensor.js';
import type { StoredActuator, StoredMeasurement } from '../store/index.js';
import type { ChangeBus } from '../core/bus.js';
import { type EventType, type Scope, type Subscription, wants } from './filter.js';
import { type RecentEventsLimits, recentEvents } from './recent-events.js';
import { sseEvent } from './sse.js';
import { type ActuatorWithInterlocks, actuatorView } from '../core/actuator-view.js';
import { doseView } from '../core/dose-view.js';

/** One event, as sent to every client it concerns. */
export interface LiveEvent {
  seq: number;
  size: number;
  /** The type clients filter on (`types`). */
  type: EventType;
  scope: Scope;
  /** The event's text for a client; undefined when nothing in it is for that client. */
  textFor(subscription: Subscription): string | undefined;
}

/** The actuator as the API answers it; one published without its interlocks (a decision read on its own) shows none. */
const actuatorJson = (a: StoredActuator & Partial<Pick<ActuatorWithInterlocks, 'interlocks'>>) =>
  JSON.stringify(actuatorView({ ...a, interlocks: a.interlocks ?? [] }));

export interface FeedDeps {
  bus: ChangeBus;
  /** The sensors known at start, for the prototype each measurement belongs to. */
  sensors: readonly Pick<Sensor, 'sensor_id' | 'prototype_id'>[];
  /** The actuators known at start, for the sensor a deleted one was on. */
  actuators: readonly Pick<StoredActuator, 'actuator_id' | 'sensor_id'>[];
  /** Tag of this instance's event ids. */
  instance: string;
  recent: RecentEventsLimits;
  /** Where each event goes once made (the open streams). */
  deliver(event: LiveEvent): void;
  /**
   * False until the first stream opens: till then no client holds an id of this instance to
   * resume from, so events need be neither made nor kept (ingest pays nothing for the feature
   * while nobody uses it).
   */
  wanted?(): boolean;
}

/**
 * Turns the committed changes heard on the bus into events (§9), numbered and kept for resume,
 * in the order they were committed.
 */
export function eventFeed({ bus, sensors, actuators, instance, recent: limits, deliver, wanted = () => true }: FeedDeps) {
  const recent = recentEvents<LiveEvent>(instance, limits);
  const prototypeOf = new Map<number, number>(sensors.map((s) => [s.sensor_id, s.prototype_id]));
  const sensorOfActuator = new Map<number, number>(actuators.map((a) => [a.actuator_id, a.sensor_id]));
  const sensorsOf = (prototypeId: number) => [...prototypeOf].filter(([, p]) => p === prototypeId).map(([s]) => s);
  const scopeOfSensors = (sensorIds: readonly number[]): Scope => ({
    sensorIds,
    prototypeIds: [...new Set(sensorIds.map((id) => prototypeOf.get(id)).filter((p) => p !== undefined))],
  });

  function emit(
    type: EventType,
    scope: Scope,
    textFor: (seq: number, subscription: Subscription) => string | undefined,
    size: number,
  ): void {
    if (!wanted()) return;
    const seq = recent.next();
    const event: LiveEvent = { seq, size, type, scope, textFor: (subscription) => textFor(seq, subscription) };
    recent.keep(event);
    deliver(event);
  }

  /** The same text for every client it concerns. */
  function emitWhole(type: EventType, wireName: string, scope: Scope, data: string): void {
    let text: string | undefined;
    emit(type, scope, (seq) => (text ??= sseEvent(recent.idOf(seq), wireName, data)), data.length);
  }

  function emitMeasurements(rows: readonly StoredMeasurement[]): void {
    const sensorIds = [...new Set(rows.map((r) => r.sensor_id))];
    const scope = scopeOfSensors(sensorIds);
    let whole: string | undefined;
    const size = rows.length * 90;
    emit(
      'measurements',
      scope,
      (seq, subscription) => {
        // Most commits are one sensor's: every client they concern gets the same text.
        const mine = sensorIds.length === 1 ? rows : rows.filter((r) => wants(subscription, 'measurements', scopeOfSensors([r.sensor_id])));
        if (mine.length === 0) return undefined;
        if (mine.length === rows.length)
          return (whole ??= sseEvent(recent.idOf(seq), 'measurements', `[${rows.map(measurementJson).join(',')}]`));
        return sseEvent(recent.idOf(seq), 'measurements', `[${mine.map(measurementJson).join(',')}]`);
      },
      size,
    );
  }

  const unsubscribe = [
    bus.subscribe('measurements', ({ rows }) => {
      if (rows.length > 0 && wanted()) emitMeasurements(rows);
    }),
    // §9 has no event for it: the clients showing that sensor's measurements are told to reload,
    // with the ids, so one that keeps the rows can drop just that one.
    bus.subscribe('measurementDeleted', ({ measurement: { measurement_id, sensor_id } }) =>
      emitWhole(
        'measurements',
        'reset',
        scopeOfSensors([sensor_id]),
        JSON.stringify({ reason: 'measurement deleted', sensor_id, measurement_id }),
      ),
    ),
    // Too many rows to send: the clients of those sensors are told to reload instead.
    bus.subscribe('generated', ({ sensorIds }) =>
      emitWhole('measurements', 'reset', scopeOfSensors(sensorIds), '{"reason":"measurements replaced"}'),
    ),
    bus.subscribe('decision', ({ actuator, state }) => {
      sensorOfActuator.set(actuator.actuator_id, actuator.sensor_id);
      emitWhole(
        'actuator',
        'actuator',
        scopeOfSensors([actuator.sensor_id]),
        `{"actuator":${actuatorJson(actuator)},"state":${activationJson(state)}}`,
      );
    }),
    bus.subscribe('actuator', (change) => {
      // The other actions reach clients through `decision`, with the state beside the actuator;
      // they are heard here only for the sensor, which a delete is placed by. (A decision may
      // still be on its way from the store when the delete comes.)
      if (change.action !== 'deleted') {
        sensorOfActuator.set(change.actuator.actuator_id, change.actuator.sensor_id);
        return;
      }
      const sensorId = sensorOfActuator.get(change.actuatorId);
      sensorOfActuator.delete(change.actuatorId);
      emitWhole('actuator', 'actuator', scopeOfSensors(sensorId === undefined ? [] : [sensorId]), `{"deleted":${change.actuatorId}}`);
    }),
    // Each dose (§15), where the actuator's events go: to the clients of its sensor and prototype.
    bus.subscribe('dose', ({ dose }) => {
      const sensorId = sensorOfActuator.get(dose.actuator_id);
      emitWhole('dose', 'dose', scopeOfSensors(sensorId === undefined ? [] : [sensorId]), JSON.stringify(doseView(dose)));
    }),
    bus.subscribe('sensor', (change) => {
      if (change.action === 'deleted') {
        const scope = scopeOfSensors([change.sensorId]);
        prototypeOf.delete(change.sensorId);
        emitWhole('sensor', 'sensor', scope, `{"deleted":${change.sensorId}}`);
        return;
      }
      const { sensor } = change;
      const before = prototypeOf.get(sensor.sensor_id);
      prototypeOf.set(sensor.sensor_id, sensor.prototype_id);
      // A sensor moved to another prototype is news to the clients of both.
      const prototypeIds = before === undefined || before === sensor.prototype_id ? [sensor.prototype_id] : [before, sensor.prototype_id];
      emitWhole('sensor', 'sensor', { sensorIds: [sensor.sensor_id], prototypeIds }, JSON.stringify(sensor));
    }),
    bus.subscribe('alert', (news) =>
      emitWhole(
        'alert',
        'alert',
        // An alert without a sensor (an actuator's, the service's own) reaches the streams not filtered by sensor.
        {
          sensorIds: news.alert.sensor_id === null ? [] : [news.alert.sensor_id],
          prototypeIds: news.alert.prototype_id === null ? [] : [news.alert.prototype_id],
        },
        JSON.stringify({ event: news.event, alert: news.alert }),
      ),
    ),
    bus.subscribe('prototype', (change) => {
      const prototypeId = change.action === 'deleted' ? change.prototypeId : change.prototype.prototype_id;
      const scope = { sensorIds: sensorsOf(prototypeId), prototypeIds: [prototypeId] };
      if (change.action === 'deleted') {
        for (const sensorId of scope.sensorIds) prototypeOf.delete(sensorId);
        emitWhole('prototype', 'prototype', scope, `{"deleted":${prototypeId}}`);
      } else {
        emitWhole('prototype', 'prototype', scope, JSON.stringify(change.prototype));
      }
    }),
    // A note concerns its prototype, and so the charts of its sensors (where it is drawn).
    bus.subscribe('note', (change) => {
      const prototypeId = change.action === 'deleted' ? change.prototypeId : change.note.prototype_id;
      const scope = { sensorIds: sensorsOf(prototypeId), prototypeIds: [prototypeId] };
      const data =
        change.action === 'deleted' ? JSON.stringify({ deleted: change.noteId, prototype_id: prototypeId }) : JSON.stringify(change.note);
      emitWhole('note', 'note', scope, data);
    }),
  ];

  /** A `reset` for one client: it reloads instead of being told what it missed. */
  const resetText = (reason = 'missed events are no longer kept') =>
    sseEvent(recent.idOf(recent.next()), 'reset', JSON.stringify({ reason }));

  return {
    /** The events after `lastEventId`, or undefined when they are no longer all kept. */
    since: (lastEventId: string) => recent.since(lastEventId),
    resetText,
    /**
     * What a client resuming from `lastEventId` is sent first: the texts of the events it missed
     * that it subscribes to, or one `reset` when they are no longer all kept or would come to
     * more than `maxBytes` — a replay past the stream's backlog bound would get it cut off before
     * it read a byte, and it would reconnect to the same replay forever.
     */
    resume(lastEventId: string, subscription: Subscription, maxBytes: number): string[] {
      const missed = recent.since(lastEventId);
      if (missed === undefined) return [resetText()];
      const texts: string[] = [];
      let bytes = 0;
      for (const event of missed) {
        const text = wants(subscription, event.type, event.scope) ? event.textFor(subscription) : undefined;
        if (text === undefined) continue;
        bytes += Buffer.byteLength(text);
        if (bytes > maxBytes) return [resetText('missed events are too many to replay')];
        texts.push(text);
      }
      return texts;
    },
    stop(): void {
      for (const stop of unsubscribe) stop();
    },
  };
}

export type EventFeed = ReturnType<typeof eventFeed>;
