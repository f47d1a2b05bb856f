import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { backoffDelay } from '../../src/mqtt/backoff.js';
import { actuatorConfig, classify, sensorConfig } from '../../src/mqtt/discovery.js';
import { excerpt, MAX_PAYLOAD_BYTES, oversizeReason, parseMeasurementPayload } from '../../src/mqtt/payload.js';
import { parseBrokerUrl } from '../../src/config/mqtt.js';
import { addressOf, topicsOf } from '../../src/mqtt/topics.js';
import { sensorTrustDefaults, storedActuatorSafety } from '../helpers/bodies.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('MQTT settings', () => {
  it('are off without MQTT_URL, and default the rest with it', () => {
    expect(loadConfig({}).mqtt).toBeUndefined();
    expect(loadConfig({ MQTT_URL: 'mqtt://broker.local', PORT: '8001' }).mqtt).toEqual({
      url: 'mqtt://broker.local:1883',
      username: undefined,
      password: undefined,
      prefix: 'sensorhub',
      clientId: expect.stringMatching(/^sensorhub-.+-8001$/),
      haDiscovery: true,
      discoveryPrefix: 'homeassistant',
      trustBroker: false,
    });
  });

  it('take the credentials from the URL, percent-decoded, and keep them out of the URL', () => {
    expect(parseBrokerUrl('mqtts://farm%40site:p%3Ass@broker.example')).toEqual({
      url: 'mqtts://broker.example:8883',
      username: 'farm@site',
      password: 'p:ss',
    });
    expect(parseBrokerUrl('mqtt://user@[::1]:1884')).toEqual({ url: 'mqtt://[::1]:1884', username: 'user', password: undefined });
  });

  it('read every variable', () => {
    expect(
      loadConfig({
        MQTT_URL: 'mqtt://u:p@h:1999',
        MQTT_TOPIC_PREFIX: 'farm/greenhouse-1',
        MQTT_CLIENT_ID: 'sensorhub-a',
        MQTT_HA_DISCOVERY: 'off',
        MQTT_HA_DISCOVERY_PREFIX: 'ha',
        MQTT_TRUST_BROKER: 'true',
      }).mqtt,
    ).toEqual({
      url: 'mqtt://h:1999',
      username: 'u',
      password: 'p',
      prefix: 'farm/greenhouse-1',
      clientId: 'sensorhub-a',
      haDiscovery: false,
      discoveryPrefix: 'ha',
      trustBroker: true,
    });
  });

  it('in enforced mode, stop the start unless MQTT_TRUST_BROKER=true, naming both settings', () => {
    const enforced = { MQTT_URL: 'mqtt://b', AUTH_MODE: 'enforced' };
    for (const env of [enforced, { ...enforced, MQTT_TRUST_BROKER: 'false' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/^MQTT_TRUST_BROKER: .*AUTH_MODE=enforced.*MQTT_TRUST_BROKER=true/);
    }
    expect(loadConfig({ ...enforced, MQTT_TRUST_BROKER: 'true' }).mqtt?.trustBroker).toBe(true);
    // Open mode asks nothing of the broker; without MQTT_URL there is nothing to trust.
    expect(loadConfig({ MQTT_URL: 'mqtt://b' }).mqtt?.trustBroker).toBe(false);
    expect(loadConfig({ AUTH_MODE: 'enforced' }).mqtt).toBeUndefined();
  });

  it('are checked even while MQTT is off', () => {
    expect(() => loadConfig({ MQTT_TOPIC_PREFIX: 'a/+/b' })).toThrow(/^MQTT_TOPIC_PREFIX: /);
  });

  it.each([
    ['MQTT_URL', { MQTT_URL: 'http://broker' }],
    ['MQTT_URL', { MQTT_URL: 'not a url' }],
    ['MQTT_URL', { MQTT_URL: 'mqtt://broker/topic' }],
    ['MQTT_TOPIC_PREFIX', { MQTT_URL: 'mqtt://b', MQTT_TOPIC_PREFIX: 'farm/#' }],
    ['MQTT_TOPIC_PREFIX', { MQTT_URL: 'mqtt://b', MQTT_TOPIC_PREFIX: 'farm/' }],
    ['MQTT_TOPIC_PREFIX', { MQTT_URL: 'mqtt://b', MQTT_TOPIC_PREFIX: '$SYS' }],
    ['MQTT_CLIENT_ID', { MQTT_URL: 'mqtt://b', MQTT_CLIENT_ID: 'has space' }],
    ['MQTT_HA_DISCOVERY', { MQTT_URL: 'mqtt://b', MQTT_HA_DISCOVERY: 'maybe' }],
    ['MQTT_HA_DISCOVERY_PREFIX', { MQTT_URL: 'mqtt://b', MQTT_HA_DISCOVERY_PREFIX: 'home+assistant' }],
    ['MQTT_TRUST_BROKER', { MQTT_TRUST_BROKER: 'perhaps' }],
  ])('stop the start naming %s when it is bad', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable}: `));
  });
});

describe('MQTT topics', () => {
  it('name the sensor or actuator of a subscribed topic', () => {
    expect(addressOf('p/q', 'p/q/sensors/12/measurements')).toEqual({ kind: 'measurements', sensorId: 12 });
    expect(addressOf('p/q', 'p/q/actuators/3/activated')).toEqual({ kind: 'activated', actuatorId: 3 });
    expect(addressOf('p/q', 'p/q/sensors/-1/measurements')).toMatchObject({ kind: 'bad-id' });
    expect(addressOf('p/q', 'p/q/sensors/2147483648/measurements')).toMatchObject({ kind: 'bad-id' });
    expect(addressOf('p/q', 'p/q/sensors/2147483647/measurements')).toEqual({ kind: 'measurements', sensorId: 2147483647 });
    expect(addressOf('p/q', 'p/sensors/1/measurements')).toEqual({ kind: 'other' });
    expect(addressOf('p/q', 'p/q/sensors/1/last')).toEqual({ kind: 'other' });
    expect(topicsOf('p').state(4)).toBe('p/actuators/4/state');
  });
});

describe('MQTT measurement payloads', () => {
  it('take a plain number, an object and an array, with the sensor of the topic', () => {
    expect(parseMeasurementPayload(7, bytes(' 6.42\n'))).toEqual({ ok: true, body: { sensor_id: 7, value: 6.42 }, batch: false });
    expect(parseMeasurementPayload(7, bytes('-1e3'))).toMatchObject({ body: { value: -1000 } });
    expect(parseMeasurementPayload(7, bytes('{"value": 1, "timestamp": "2026-01-01T00:00:00Z"}'))).toEqual({
      ok: true,
      body: { sensor_id: 7, value: 1, timestamp: '2026-01-01T00:00:00Z' },
      batch: false,
    });
    expect(parseMeasurementPayload(7, bytes('[{"value": 1}, {"value": 2, "sensor_id": "7"}]'))).toEqual({
      ok: true,
      body: [
        { sensor_id: 7, value: 1 },
        { sensor_id: 7, value: 2 },
      ],
      batch: true,
    });
  });

  it.each([
    ['', /empty payload/],
    ['NaN', /malformed JSON/],
    ['0x10', /malformed JSON/],
    ['1e400', /not a finite number/],
    ['true', /got boolean/],
    ['null', /got null/],
    ['[1]', /element 0/],
    ['[{"value":1},[2]]', /element 1/],
    ['{"sensor_id": 8, "value": 1}', /not the sensor of the topic \(7\)/],
  ])('refuse %j with a reason', (payload, reason) => {
    const parsed = parseMeasurementPayload(7, bytes(payload));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toMatch(reason);
  });

  it('refuse a payload over 64 KiB before reading it, and a number longer than 64 characters, in one pass', { timeout: 60_000 }, () => {
    expect(oversizeReason(new Uint8Array(MAX_PAYLOAD_BYTES))).toBeUndefined();
    expect(oversizeReason(new Uint8Array(MAX_PAYLOAD_BYTES + 1))).toMatch(/65537 bytes, over the limit of 65536/);
    // Not UTF-8 either: the size is what is refused, before any decoding.
    expect(parseMeasurementPayload(7, Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 0xff))).toEqual({
      ok: false,
      reason: expect.stringMatching(/over the limit/),
    });
    expect(parseMeasurementPayload(7, bytes('1'.repeat(64)))).toMatchObject({ ok: true, body: { value: Number('1'.repeat(64)) } });
    for (const payload of ['1'.repeat(65), `${'1'.repeat(60_000)}x`, `-${'1'.repeat(60_000)}`, `.${'9'.repeat(100)}`]) {
      expect(parseMeasurementPayload(7, bytes(payload))).toEqual({
        ok: false,
        reason: expect.stringMatching(/number longer than 64 characters/),
      });
    }
    // Surrounding blanks are not part of the number.
    expect(parseMeasurementPayload(7, bytes(`  ${'1'.repeat(64)}\n`))).toMatchObject({ ok: true });
  });

  it('cut a long payload to an excerpt, whole characters only', () => {
    expect(excerpt(bytes('short'))).toBe('short');
    expect(excerpt(bytes('é'.repeat(300)), 10)).toBe(`${'é'.repeat(10)}…`);
  });
});

describe('MQTT reconnection backoff', () => {
  it('doubles from the minimum up to the maximum, spread by the jitter', () => {
    const backoff = { minMs: 500, maxMs: 30_000, jitter: 0.2 };
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(backoff, n, 0.5))).toEqual([500, 1000, 2000, 4000, 30_000]);
    expect(backoffDelay(backoff, 0, 0)).toBe(400);
    expect(backoffDelay(backoff, 0, 0.999999)).toBe(600);
    expect(backoffDelay(backoff, 1000, 0.5)).toBe(30_000);
  });
});

describe('Home Assistant discovery configs', () => {
  const context = { discoveryPrefix: 'homeassistant', prefix: 'farm/one', topics: topicsOf('farm/one') };
  const sensor = {
    sensor_id: 5,
    sensor_type: 'temperature' as const,
    prototype_id: 2,
    sensor_unit: 'Celsius',
    threshold_critically_low: 0,
    threshold_low: 1,
    threshold_high: 2,
    threshold_critically_high: 3,
    ...sensorTrustDefaults,
  };

  it('make a sensor entity reading the sensor’s newest value, on its prototype’s device', () => {
    const { topic, payload } = sensorConfig(context, sensor, { prototype_id: 2, prototype_name: 'Tank B' });
    expect(topic).toBe('homeassistant/sensor/farm_one/sensor_5/config');
    expect(JSON.parse(payload)).toMatchObject({
      name: 'Sensor 5 (temperature)',
      unique_id: 'farm_one_sensor_5',
      state_topic: 'farm/one/sensors/5/last',
      value_template: '{{ value_json.value }}',
      device_class: 'temperature',
      unit_of_measurement: '°C',
      state_class: 'measurement',
      device: { identifiers: ['farm_one_prototype_2'], name: 'Tank B' },
    });
  });

  it('give a device class only with a unit Home Assistant accepts for it', () => {
    expect(classify('ec', 'mS/cm')).toEqual({ device_class: 'conductivity', unit_of_measurement: 'mS/cm' });
    expect(classify('ec', 'ppm')).toEqual({ unit_of_measurement: 'ppm' });
    expect(classify('ph', 'pH')).toEqual({ device_class: 'ph' });
    expect(classify('humidity', '%')).toEqual({ device_class: 'humidity', unit_of_measurement: '%' });
    expect(classify('temperature', 'furlongs')).toEqual({ unit_of_measurement: 'furlongs' });
    expect(classify('oxygen', 'mg/L')).toEqual({ unit_of_measurement: 'mg/L' });
  });

  it('make an actuator’s decision a running binary sensor named after the actuator', () => {
    const actuator = {
      actuator_id: 9,
      actuator_type: 'acid_pump' as const,
      actuator_name: null,
      sensor_id: 5,
      condition_value: 1,
      activation_condition: 'low' as const,
      activation_period: 5,
      activation_duration: 2,
      enabled: true,
      last_activated: 0,
      ...storedActuatorSafety,
    };
    const unnamed = sensorConfig(context, sensor, undefined);
    expect(JSON.parse(unnamed.payload).device.name).toBe('Prototype 2');
    const { topic, payload } = actuatorConfig(context, actuator, 2, undefined);
    expect(topic).toBe('homeassistant/binary_sensor/farm_one/actuator_9/config');
    expect(JSON.parse(payload)).toMatchObject({
      name: 'acid pump 9',
      unique_id: 'farm_one_actuator_9',
      state_topic: 'farm/one/actuators/9/state',
      device_class: 'running',
    });
    expect(JSON.parse(actuatorConfig(context, { ...actuator, actuator_name: 'Acid' }, 2, undefined).payload).name).toBe('Acid');
  });
});
