import { describe, expect, it } from 'vitest';
import { type Changes, changeBus } from '../../src/core/bus.js';

const ROWS = [{ measurement_id: 1, sensor_id: 2, value: 3.5, timestamp: 1_000 }];

describe('bus of committed changes', () => {
  it('tells every listener of a topic, in the order they subscribed, before publish returns', () => {
    const bus = changeBus();
    const heard: string[] = [];
    bus.subscribe('measurements', (change) => heard.push(`a:${change.rows.length}`));
    bus.subscribe('measurements', (change) => heard.push(`b:${change.rows[0].value}`));
    bus.publish('measurements', { rows: ROWS });
    expect(heard).toEqual(['a:1', 'b:3.5']);
  });

  it('keeps topics apart', () => {
    const bus = changeBus();
    const sensors: Changes['sensor'][] = [];
    bus.subscribe('sensor', (change) => sensors.push(change));
    bus.publish('measurements', { rows: ROWS });
    bus.publish('actuator', { action: 'deleted', actuatorId: 4 });
    expect(sensors).toEqual([]);
    bus.publish('sensor', { action: 'deleted', sensorId: 9 });
    expect(sensors).toEqual([{ action: 'deleted', sensorId: 9 }]);
  });

  it('stops telling a listener once it unsubscribes, and only that subscription', () => {
    const bus = changeBus();
    let count = 0;
    const listener = () => {
      count++;
    };
    const first = bus.subscribe('generated', listener);
    bus.subscribe('generated', listener);
    const change = { sensorIds: [1], generated: 10, deleted: 0 };
    bus.publish('generated', change);
    expect(count).toBe(2);
    first();
    first();
    bus.publish('generated', change);
    expect(count).toBe(3);
  });

  it('a listener that throws neither fails the publisher nor silences the listeners after it', () => {
    const failures: [unknown, string][] = [];
    const bus = changeBus({ onListenerError: (error, topic) => failures.push([error, topic]) });
    const heard: number[] = [];
    bus.subscribe('prototype', () => {
      throw new Error('listener broke');
    });
    bus.subscribe('prototype', (change) => heard.push(change.action === 'created' ? change.prototype.prototype_id : -1));
    expect(() =>
      bus.publish('prototype', { action: 'created', prototype: { prototype_id: 7, prototype_name: 'tank', paused_until: null } }),
    ).not.toThrow();
    expect(heard).toEqual([7]);
    expect(failures).toHaveLength(1);
    expect((failures[0][0] as Error).message).toBe('listener broke');
    expect(failures[0][1]).toBe('prototype');
  });

  it('a listener subscribed while a change is told hears the next one; one unsubscribed meanwhile hears no more', () => {
    const bus = changeBus();
    const heard: string[] = [];
    let stopLast = () => {};
    bus.subscribe('sensor', (change) => {
      heard.push(`first:${change.action}`);
      if (heard.length === 1) {
        bus.subscribe('sensor', () => heard.push('late'));
        stopLast();
      }
    });
    stopLast = bus.subscribe('sensor', () => heard.push('stopped'));
    bus.publish('sensor', { action: 'deleted', sensorId: 1 });
    bus.publish('sensor', { action: 'deleted', sensorId: 2 });
    expect(heard).toEqual(['first:deleted', 'first:deleted', 'late']);
  });
});
