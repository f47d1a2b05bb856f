import { describe, expect, it } from 'vitest';
import type { Actuator, Sensor } from '../src/api/types';
import { actuatorConnect, exampleValue, sensorConnect, shellQuote } from '../src/domain/connect';
import { permissionBits, permissionNames } from '../src/domain/permissions';

const ph = {
  sensor_id: 4,
  sensor_type: 'ph',
  prototype_id: 1,
  sensor_unit: 'pH',
  threshold_critically_low: 5,
  threshold_low: 5.5,
  threshold_high: 6.5,
  threshold_critically_high: 7,
} as Sensor;
const pump = { actuator_id: 2, sensor_id: 4 } as Actuator;

describe('sensorConnect', () => {
  it('gives a curl line that posts a normal reading to this sensor, and the MQTT topic when the service has a broker', () => {
    const info = sensorConnect('http://pi.local:8000', ph, 'farm', false);
    expect(info.http[0].text).toBe(
      `curl -X POST 'http://pi.local:8000/measurements' -H 'Content-Type: application/json' -d '{"sensor_id":4,"value":6}'`,
    );
    expect(info.mqtt).toEqual([
      { label: 'Topic', text: 'farm/sensors/4/measurements' },
      { label: 'Payload (a number)', text: '6' },
    ]);
    expect(info.permission).toBe('post_measurements');
    expect(sensorConnect('http://x', ph, null, false).mqtt).toBeNull();
  });

  it('adds the bearer header in enforced mode', () => {
    const info = sensorConnect('http://x', ph, null, true);
    expect(info.http[0].text).toContain(`-H 'Authorization: Bearer <device token>'`);
    expect(info.needsToken).toBe(true);
  });
});

describe('actuatorConnect', () => {
  it('gives the state a controller polls and the run report, with control as the permission', () => {
    const info = actuatorConnect('http://pi.local:8000', pump, 'farm', false);
    expect(info.http.map((line) => line.text)).toEqual([
      `curl 'http://pi.local:8000/actuators/2/state'`,
      `curl -X PATCH 'http://pi.local:8000/actuators/2/last_activated'`,
    ]);
    expect(info.mqtt?.map((line) => line.text)).toEqual(['farm/actuators/2/state', 'farm/actuators/2/activated']);
    expect(info.permission).toBe('control');
  });
});

describe('helpers', () => {
  it('quotes for a shell and picks the middle of the ok range', () => {
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
    expect(exampleValue({ threshold_low: 1, threshold_high: 2.333 })).toBe(1.67);
  });

  it('names permission bits both ways', () => {
    expect(permissionNames(1 | 16)).toEqual(['post_measurements', 'control']);
    expect(permissionBits(['read', 'modify', 'nonsense'])).toBe(6);
    expect(permissionNames(31)).toHaveLength(5);
  });
});
