import { describe, test } from 'vitest';
import type { StoreKind } from '../../src/store/dialect.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, type TestClient, testClient, uniquePrefix } from '../helpers/mqtt.js';

/** One case's service, linked to the shared broker under a topic prefix of its own, and a device. */
interface Link {
  service: TestService;
  device: TestClient;
  prefix: string;
}

/**
 * Every case has a service, a store and a prefix of its own, so the cases (most of their time spent
 * waiting on the broker) run side by side.
 */
const linkTest = (kind: StoreKind) =>
  test.extend<{ link: Link }>({
    // eslint-disable-next-line no-empty-pattern -- vitest reads the fixtures a fixture needs from this pattern
    link: async ({}, use) => {
      const prefix = uniquePrefix();
      const service = await startService(kind, { env: mqttEnv(prefix) });
      await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe');
      const device = await testClient();
      await device.subscribe(`${prefix}/errors`);
      await device.subscribe(`${prefix}/sensors/+/last`);
      await use({ service, device, prefix });
      await device.close();
      await service.close();
      await cleanBroker(prefix, serviceClientIds(prefix));
    },
  });

const measurementsOf = async (service: TestService, sensorId: number) =>
  (await service.get(`/measurements/${sensorId}`)).body as { value: number; timestamp: string }[];
const countAll = async (service: TestService) =>
  (await Promise.all([1, 2, 3].map((id) => measurementsOf(service, id)))).reduce((n, rows) => n + rows.length, 0);
const metric = async (service: TestService, name: string) => {
  const text = (await service.get('/metrics')).text;
  return text
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
};

describe.concurrent.each(storeKinds())('MQTT ingest (%s)', (kind) => {
  const it = linkTest(kind);

  it('takes a plain number, a JSON object and a JSON array, and publishes the newest as retained', async ({
    link: { service, device, prefix },
    expect,
  }) => {
    await device.publish(`${prefix}/sensors/2/measurements`, '6.42');
    await eventually(async () => (await measurementsOf(service, 2)).length === 1, 'the plain number to be stored');
    expect((await measurementsOf(service, 2))[0].value).toBe(6.42);

    await device.publish(`${prefix}/sensors/2/measurements`, JSON.stringify({ value: 6.5, timestamp: '2026-01-01T10:00:00+01:00' }));
    await eventually(async () => (await measurementsOf(service, 2)).length === 2, 'the object to be stored');
    expect((await measurementsOf(service, 2)).map((m) => m.timestamp)).toContain('2026-01-01T09:00:00.000Z');

    const batch = [
      { value: 1.1, timestamp: '2026-01-02T00:00:00Z' },
      { value: 1.2, timestamp: '2026-01-02T00:01:00Z' },
      { value: '1.3', timestamp: '2026-01-02T00:02:00Z', note: 'ignored' },
    ];
    // As in a body of POST /measurements, a numeric string is taken as the number and unknown fields are ignored.
    await device.publish(`${prefix}/sensors/3/measurements`, JSON.stringify(batch));
    await eventually(async () => (await measurementsOf(service, 3)).length === 3, 'the array to be stored');
    expect((await measurementsOf(service, 3)).map((m) => m.value)).toEqual([1.1, 1.2, 1.3]);

    const last = await device.waitFor((m) => m.topic === `${prefix}/sensors/2/last` && JSON.parse(m.text).value === 6.42);
    expect(JSON.parse(last.text)).toMatchObject({ sensor_id: 2, value: 6.42, measurement_id: expect.any(Number) });
    // A late measurement (older timestamp) does not replace the newest.
    expect(device.received.filter((m) => m.topic === `${prefix}/sensors/2/last`).map((m) => JSON.parse(m.text).value)).not.toContain(6.5);

    // A subscriber arriving later finds the newest value retained (once the service has published
    // it: arriving before, it would get it live).
    await device.waitFor((m) => m.topic === `${prefix}/sensors/3/last` && JSON.parse(m.text).value === 1.3);
    const late = await testClient();
    await late.subscribe(`${prefix}/sensors/3/last`);
    const retained = await late.waitFor((m) => m.topic === `${prefix}/sensors/3/last`);
    expect(retained.retain).toBe(true);
    expect(JSON.parse(retained.text).value).toBe(1.3);
    await late.close();

    expect(await metric(service, 'sensorhub_mqtt_messages_received_total')).toBe(3);
    expect(await metric(service, 'sensorhub_mqtt_messages_stored_total')).toBe(3);
    expect(await metric(service, 'sensorhub_mqtt_messages_refused_total')).toBe(0);
  });

  const poison: [string, string, string | Buffer, RegExp][] = [
    ['malformed JSON', 'sensors/1/measurements', '{"value": 1', /malformed JSON/],
    ['not a number', 'sensors/1/measurements', '{"value": "abc"}', /payload\.value: Input should be a valid number/],
    ['a non-finite number', 'sensors/1/measurements', '1e999', /not a finite number/],
    ['an empty payload', 'sensors/1/measurements', '', /empty payload/],
    ['a JSON string', 'sensors/1/measurements', '"hello"', /got string/],
    ['a missing value', 'sensors/1/measurements', '{"timestamp": "2026-01-01T00:00:00Z"}', /payload\.value: Field required|value/],
    ['an unknown sensor', 'sensors/999/measurements', '5', /Sensor 999 not found/],
    ['a timestamp in the future', 'sensors/1/measurements', JSON.stringify({ value: 1, timestamp: '2999-01-01T00:00:00Z' }), /future/],
    ['a bad date-time', 'sensors/1/measurements', JSON.stringify({ value: 1, timestamp: 'yesterday' }), /datetime/],
    ['a sensor id that is not one', 'sensors/abc/measurements', '5', /sensor id in the topic/],
    ['an id beyond the range', 'sensors/99999999999/measurements', '5', /sensor id in the topic/],
    ['another sensor named in the payload', 'sensors/1/measurements', '{"sensor_id": 2, "value": 1}', /not the sensor of the topic/],
    ['an array of numbers', 'sensors/1/measurements', '[1, 2]', /element 0 of the array is not an object/],
    ['an empty array', 'sensors/1/measurements', '[]', /at least 1 item/],
    ['an array with one bad element', 'sensors/1/measurements', '[{"value": 1}, {"value": null}]', /payload\.1\.value/],
    ['bytes that are not UTF-8', 'sensors/1/measurements', Buffer.from([0xff, 0xfe, 0x31]), /not UTF-8/],
    ['an unknown actuator', 'actuators/77/activated', '1', /Actuator 77 not found/i],
    ['a number longer than 64 characters', 'sensors/1/measurements', Buffer.from('1'.repeat(65)), /number longer than 64 characters/],
    ['a payload over 64 KiB', 'sensors/1/measurements', Buffer.from(`[${'{"value":1},'.repeat(6000)}{"value":1}]`), /over the limit/],
    ['an activation over 64 KiB', 'actuators/1/activated', Buffer.alloc(64 * 1024 + 1, 0x20), /over the limit/],
  ];

  it.for(poison)(
    'refuses %s: acknowledged, not stored, reported on <prefix>/errors, and the next message still goes in',
    async ([_name, path, payload, reason], { link: { service, device, prefix }, expect }) => {
      const before = await countAll(service);
      const topic = `${prefix}/${path}`;
      await device.publish(topic, payload);
      const report = JSON.parse((await device.waitFor((m) => m.topic === `${prefix}/errors`)).text);
      expect(report).toMatchObject({ topic, reason: expect.stringMatching(reason) });
      if (typeof payload === 'string') expect(report.payload).toBe(payload);
      expect(await countAll(service)).toBe(before);
      expect(await metric(service, 'sensorhub_mqtt_messages_refused_total')).toBe(1);

      await device.publish(`${prefix}/sensors/1/measurements`, '2.5');
      await eventually(async () => (await countAll(service)) === before + 1, 'the next message to be stored');
    },
  );

  it('refuses only the faulty messages of a burst taken in together, and stores the rest once', async ({
    link: { service, device, prefix },
    expect,
  }) => {
    const future = new Date(Date.now() + 3600_000).toISOString();
    const sending: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) {
      sending.push(device.publish(`${prefix}/sensors/2/measurements`, String(i)));
      if (i === 20) sending.push(device.publish(`${prefix}/sensors/2/measurements`, JSON.stringify({ value: 1, timestamp: future })));
      if (i === 40) sending.push(device.publish(`${prefix}/sensors/999/measurements`, '5'));
    }
    await Promise.all(sending);
    await eventually(
      async () => (await metric(service, 'sensorhub_mqtt_messages_refused_total')) === 2,
      'the two faulty messages to be refused',
    );
    await eventually(async () => (await metric(service, 'sensorhub_mqtt_messages_stored_total')) === 60, 'the others to be stored');
    const values = (await measurementsOf(service, 2)).map((m) => m.value).sort((a, b) => a - b);
    expect(values).toEqual(Array.from({ length: 60 }, (_, i) => i));
    const reasons = () => device.received.filter((m) => m.topic === `${prefix}/errors`).map((m) => JSON.parse(m.text).reason as string);
    await eventually(() => reasons().length === 2, 'both to be reported');
    expect(reasons().join(' ')).toMatch(/future/);
    expect(reasons().join(' ')).toMatch(/999/);
  });

  // 200,000 digits took a pattern with two ways to split a run of digits over a minute, the whole
  // service stalled meanwhile. The test's own time limit is what catches that coming back.
  it(
    'refuses 200,000 digits, and digits under the size limit, in linear time while /healthz keeps answering',
    {
      timeout: 60_000,
    },
    async ({ link: { service, device, prefix }, expect }) => {
      const before = await countAll(service);
      const topic = `${prefix}/sensors/1/measurements`;
      const payloads = [`${'1'.repeat(200_000)}x`, '1'.repeat(200_000), `${'1'.repeat(60_000)}x`];
      for (const payload of payloads) await device.publish(topic, payload);
      expect((await service.get('/healthz')).body).toMatchObject({ status: 'ok', mqtt: 'connected' });

      const reports = () => device.received.filter((m) => m.topic === `${prefix}/errors`).map((m) => JSON.parse(m.text));
      await eventually(() => reports().length === payloads.length, 'the three payloads to be reported');
      expect(
        reports()
          .map((r) => r.reason)
          .sort(),
      ).toEqual([
        expect.stringMatching(/number longer than 64 characters is refused \(60001 characters\)/),
        expect.stringMatching(/the payload is 200000 bytes, over the limit of 65536 bytes/),
        expect.stringMatching(/the payload is 200001 bytes, over the limit of 65536 bytes/),
      ]);
      expect(reports().every((r) => r.topic === topic && r.payload.length <= 201)).toBe(true);
      expect(await countAll(service)).toBe(before);

      await device.publish(topic, '2.5');
      await eventually(async () => (await countAll(service)) === before + 1, 'the next message to be stored');
    },
  );

  it('reports only an excerpt of a long poison payload', async ({ link: { device, prefix }, expect }) => {
    await device.publish(`${prefix}/sensors/1/measurements`, `{"value": "${'x'.repeat(5000)}"}`);
    const report = JSON.parse((await device.waitFor((m) => m.topic === `${prefix}/errors`)).text);
    expect(report.payload.length).toBeLessThanOrEqual(201);
    expect(report.payload.endsWith('…')).toBe(true);
  });

  it('an activation published by a controller sets last_activated, as PATCH …/last_activated does', async ({
    link: { service, device, prefix },
  }) => {
    const before = (await service.get('/actuators/0')).body[0];
    service.clock.now = Date.parse(before.last_activated) + 60_000;
    await device.publish(`${prefix}/actuators/${before.actuator_id}/activated`, '');
    await eventually(
      async () => (await service.get('/actuators/0')).body[0].last_activated === new Date(service.clock.now!).toISOString(),
      'last_activated to move',
    );
  });

  it('an activation published by a controller records a dose with its sensor’s newest reading, as PATCH …/last_activated does', async ({
    link: { service, device, prefix },
    expect,
  }) => {
    const pump = (await service.get('/actuators/0')).body[0];
    expect((await service.post('/measurements', { sensor_id: pump.sensor_id, value: 1.75 })).status).toBe(200);
    await device.publish(`${prefix}/actuators/${pump.actuator_id}/activated`, '');
    await eventually(async () => (await service.get(`/actuators/${pump.actuator_id}/activations`)).body.length === 1, 'the dose');
    expect((await service.get(`/actuators/${pump.actuator_id}/activations`)).body[0]).toMatchObject({
      actuator_id: pump.actuator_id,
      duration: pump.activation_duration,
      value_before: 1.75,
      answered: null,
    });
  });

  it('shows the link on /healthz and counts it on /metrics', async ({ link: { service }, expect }) => {
    expect((await service.get('/healthz')).body).toMatchObject({ status: 'ok', mqtt: 'connected' });
    expect(await metric(service, 'sensorhub_mqtt_connected')).toBe(1);
  });
});
