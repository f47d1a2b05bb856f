import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCamera, type CameraStandIn } from '../helpers/camera.js';
import { cleanBroker, eventually, mqttEnv, serviceClientIds, testClient, type TestClient, uniquePrefix } from '../helpers/mqtt.js';
import { requestJson, type ServiceProcess, spawnService } from '../helpers/process.js';
import { mountSmallDisk, type SmallDisk } from '../helpers/small-disk.js';

const SENSOR = 2;
const newSensor = (name: string, prototypeId: number) => ({
  sensor_type: 'ph',
  prototype_id: prototypeId,
  sensor_unit: name,
  threshold_critically_low: 4,
  threshold_low: 5,
  threshold_high: 7,
  threshold_critically_high: 8,
});
/** Attempts at a write before the test gives up waiting for the disk to refuse it. */
const MAX_ATTEMPTS = 500;

/**
 * The service as a real process on a SQLite file on a small disk of its own, filled to the last
 * byte: writes are 507s naming the disk (never a 500), reads and /healthz go on, an MQTT message
 * waits unacknowledged and unrefused, and once the filler is deleted writes succeed again, with
 * every measurement acknowledged before still there, after a SIGKILL and a restart too, and the
 * file intact.
 */
describe('a full disk under the SQLite store', () => {
  let disk: SmallDisk;
  let camera: CameraStandIn;
  let device: TestClient | undefined;
  const prefix = uniquePrefix();
  const running: ServiceProcess[] = [];

  beforeAll(async () => {
    disk = mountSmallDisk(4);
    camera = await startCamera();
  });

  afterAll(async () => {
    for (const service of running.splice(0)) await service.stop('SIGKILL');
    await device?.close();
    await camera?.close();
    disk?.remove();
    await cleanBroker(prefix, serviceClientIds(prefix));
  });

  const file = () => join(disk.dir, 'store.db');
  const start = async (env: Record<string, string> = {}) => {
    const service = await spawnService({
      DATABASE_URL: `sqlite:${file()}`,
      PICTURE_SOURCE: camera.url,
      PICTURE_CACHE_MS: '0',
      TIMELAPSE_DIR: join(disk.dir, 'timelapses'),
      ...env,
    });
    running.push(service);
    return service;
  };
  const stored = async (service: ServiceProcess) => {
    const { status, body } = await requestJson(`${service.url}/measurements/${SENSOR}`);
    expect(status).toBe(200);
    return new Set((body as { value: number }[]).map((m) => m.value));
  };
  const metrics = async (service: ServiceProcess) => (await fetch(`${service.url}/metrics`)).text();

  it('refuses writes with 507, keeps reads, and loses nothing acknowledged once space is freed', async () => {
    const service = await start(mqttEnv(prefix));
    await eventually(async () => (await requestJson(`${service.url}/healthz`)).body.mqtt === 'connected', 'the MQTT link', 20_000);
    const prototypeId = (await requestJson(`${service.url}/prototypes`)).body[0].prototype_id as number;
    device = await testClient();
    await device.subscribe(`${prefix}/errors`);

    const acknowledged = new Set<number>();
    let next = 0;
    const base = Date.now() - 3_600_000;
    const reading = () => {
      const value = next++;
      return { sensor_id: SENSOR, value, timestamp: new Date(base + value * 10).toISOString() };
    };
    /** Posts until the disk refuses: every 200 is acknowledged and must be kept; anything but 200 or 507 fails. */
    const postUntilFull = async (body: () => ReturnType<typeof reading> | ReturnType<typeof reading>[]) => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const sent = body();
        const answer = await requestJson(`${service.url}/measurements`, 'POST', sent);
        if (answer.status === 507) return answer;
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        for (const m of [sent].flat()) acknowledged.add(m.value);
      }
      throw new Error(`the disk never refused a write in ${MAX_ATTEMPTS} attempts`);
    };

    for (let i = 0; i < 20; i++) {
      const batch = Array.from({ length: 50 }, reading);
      expect((await requestJson(`${service.url}/measurements`, 'POST', batch)).status).toBe(200);
      for (const m of batch) acknowledged.add(m.value);
    }

    disk.fill();
    expect(disk.available()).toBe(0);

    const batchRefused = await postUntilFull(() => Array.from({ length: 50 }, reading));
    expect(batchRefused.body.detail).toMatch(/disk full/);
    expect(batchRefused.body.detail).toContain(`Free space on the disk holding ${file()}`);
    const singleRefused = await postUntilFull(reading);
    expect(singleRefused.body).toEqual(batchRefused.body);
    // Another kind of write, through the query builder's transaction rather than the group commit.
    const sensor = await requestJson(`${service.url}/sensors/`, 'POST', newSensor('pH full', prototypeId));
    expect(sensor.status, JSON.stringify(sensor.body)).toBe(507);
    expect(sensor.body.detail).toMatch(/disk full/);
    // A timelapse's first file cannot be written either.
    const timelapse = await requestJson(`${service.url}/timelapse/start`, 'POST', { frequency: 1, duration: 60, framerate: 5 });
    expect(timelapse.status, JSON.stringify(timelapse.body)).toBe(507);
    expect(timelapse.body.detail).toMatch(/disk full/);
    expect(timelapse.body.detail).toContain(`Free space on the disk holding ${join(disk.dir, 'timelapses')}`);
    expect((await requestJson(`${service.url}/timelapse`)).body).toEqual([]);

    // Reads go on.
    const whileFull = await stored(service);
    expect([...acknowledged].filter((value) => !whileFull.has(value))).toEqual([]);
    expect((await requestJson(`${service.url}/measurements/${SENSOR}/last`)).status).toBe(200);
    expect((await requestJson(`${service.url}/healthz`)).status).toBe(200);

    // An MQTT message waits for space, unacknowledged: neither stored nor refused.
    const fromMqtt = reading();
    await device.publish(
      `${prefix}/sensors/${SENSOR}/measurements`,
      JSON.stringify({ value: fromMqtt.value, timestamp: fromMqtt.timestamp }),
    );
    await eventually(
      () => service.output.some((line) => line.includes('MQTT message waits for space on the disk')),
      'the message to wait',
      20_000,
    );
    expect((await stored(service)).has(fromMqtt.value)).toBe(false);
    expect(await metrics(service)).toMatch(/^sensorhub_mqtt_messages_stored_total 0$/m);
    expect(await metrics(service)).not.toMatch(/^sensorhub_mqtt_messages_refused_total\{/m);

    disk.free();

    // Writes succeed again, the waiting message goes in once, and nothing acknowledged is lost.
    const after = reading();
    expect((await requestJson(`${service.url}/measurements`, 'POST', after)).status).toBe(200);
    acknowledged.add(after.value);
    await eventually(async () => (await stored(service)).has(fromMqtt.value), 'the MQTT message to be stored', 30_000);
    acknowledged.add(fromMqtt.value);
    expect(await metrics(service)).toMatch(/^sensorhub_mqtt_messages_stored_total 1$/m);
    expect(await metrics(service)).not.toMatch(/^sensorhub_mqtt_messages_refused_total\{/m);
    expect(device.received).toEqual([]);
    const created = await requestJson(`${service.url}/sensors/`, 'POST', newSensor('pH freed', prototypeId));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const timelapseNow = await requestJson(`${service.url}/timelapse/start`, 'POST', { frequency: 1, duration: 60, framerate: 5 });
    expect(timelapseNow.status, JSON.stringify(timelapseNow.body)).toBe(200);
    expect((await requestJson(`${service.url}/timelapse/stop`, 'POST')).status).toBe(200);

    const afterFree = await stored(service);
    expect([...acknowledged].filter((value) => !afterFree.has(value))).toEqual([]);
    expect(afterFree.size).toBe(acknowledged.size);

    // A power cut, then the same file again: everything acknowledged is there, the file intact.
    await service.stop('SIGKILL');
    running.splice(running.indexOf(service), 1);
    const again = await start();
    const afterRestart = await stored(again);
    expect([...acknowledged].filter((value) => !afterRestart.has(value))).toEqual([]);
    expect(afterRestart.size).toBe(acknowledged.size);
    await again.stop();
    running.splice(running.indexOf(again), 1);
    const check = new SQLite(file(), { readonly: true });
    try {
      expect(check.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      check.close();
    }
  }, 180_000);
});
