import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Broker, startBroker } from '../helpers/mosquitto.js';
import { eventually, type TestClient, testClient } from '../helpers/mqtt.js';
import { startService, type TestService } from '../helpers/service.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/** The example configuration the manual shows: the test runs a broker on exactly these files. */
const EXAMPLE = new URL('../../deploy/mosquitto/', import.meta.url).pathname;

const PASSWORDS: Record<string, string> = {
  sensorhub: 'service secret',
  'greenhouse-node-1': 'node 1 secret',
  'greenhouse-node-2': 'node 2 secret',
};

/** The example's settings, with its files in the broker's folder instead of /etc/mosquitto. */
function exampleAccess(dir: string): string[] {
  // Started as root, Mosquitto reads these as its own user once it has dropped root.
  chmodSync(dir, 0o755);
  const passwords = join(dir, 'sensorhub.passwd');
  writeFileSync(passwords, '');
  for (const [user, password] of Object.entries(PASSWORDS)) execFileSync('mosquitto_passwd', ['-b', passwords, user, password]);
  copyFileSync(join(EXAMPLE, 'sensorhub.acl'), join(dir, 'sensorhub.acl'));
  return (
    readFileSync(join(EXAMPLE, 'sensorhub.conf'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      // The broker listens on a port of its own (the example's 1883 is the shared broker's here).
      .filter((line) => !line.startsWith('listener '))
      .map((line) => line.replaceAll('/etc/mosquitto/', `${dir}/`))
  );
}

/**
 * AUTH_MODE=enforced with MQTT_TRUST_BROKER=true, behind a Mosquitto that authenticates each
 * device and keeps it to its own topics (§12 Trust).
 */
describe.each(storeKinds())('MQTT behind a broker with per-device ACLs, in enforced mode (%s)', (kind) => {
  let broker: Broker;
  let database: ScratchDatabase;
  let service: TestService;
  let token: string;
  const clients: TestClient[] = [];
  const as = async (user: string) => {
    const client = await testClient(broker.url, { username: user, password: PASSWORDS[user] });
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    broker = await startBroker({ access: exampleAccess });
    database = await scratchDatabase(kind);
    const url = `mqtt://sensorhub:${encodeURIComponent(PASSWORDS.sensorhub)}@127.0.0.1:${broker.port}`;
    service = await startService(kind, {
      env: { MQTT_URL: url, MQTT_CLIENT_ID: 'sensorhub-acl-test', AUTH_MODE: 'enforced', MQTT_TRUST_BROKER: 'true' },
      database,
    });
    token = await tokenFor(service.store, 'reader', 2);
    await eventually(async () => (await service.get('/healthz')).body.mqtt === 'connected', 'the service to subscribe', 20_000);
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await service.close();
    await broker.remove();
    await database.drop();
  });

  const values = async (sensorId: number) =>
    ((await service.get(`/measurements/${sensorId}`, { token })).body as { value: number }[]).map((m) => m.value);

  it('stores what a device publishes on its own topics, and nothing it publishes on another device’s', async () => {
    // Sees every measurement the broker lets through, in the order it got them.
    const witness = await as('sensorhub');
    await witness.subscribe('sensorhub/sensors/+/measurements');
    const nodeOne = await as('greenhouse-node-1');

    // Mosquitto answers a denied QoS 1 publication "not authorized" (MQTT.js then drops that
    // connection, so the device's own readings go on another one).
    const stray = await as('greenhouse-node-1');
    await expect(stray.publish('sensorhub/sensors/2/measurements', '7.5')).rejects.toThrow(/Not authorized/);
    await nodeOne.publish('sensorhub/sensors/1/measurements', '1.25');
    await eventually(async () => (await values(1)).includes(1.25), 'node 1’s own reading to be stored');
    await witness.waitFor((m) => m.topic === 'sensorhub/sensors/1/measurements');
    expect(witness.received.map((m) => m.topic)).toEqual(['sensorhub/sensors/1/measurements']);

    const before = (await service.get('/actuators/0', { token })).body[0];
    expect(before.actuator_id).toBe(1);
    service.clock.now = Date.parse(before.last_activated) + 60_000;
    await nodeOne.publish('sensorhub/actuators/1/activated', '');
    await eventually(
      async () => (await service.get('/actuators/0', { token })).body[0].last_activated === new Date(service.clock.now!).toISOString(),
      'node 1’s pump run to be recorded',
    );

    const recorded = new Date(service.clock.now).toISOString();
    service.clock.now += 60_000;
    const nodeTwo = await as('greenhouse-node-2');
    await expect((await as('greenhouse-node-2')).publish('sensorhub/actuators/1/activated', '')).rejects.toThrow(/Not authorized/);
    await nodeTwo.publish('sensorhub/sensors/2/measurements', '6.5');
    await eventually(async () => (await values(2)).includes(6.5), 'node 2’s own reading to be stored');
    expect(await values(2)).toEqual([6.5]);
    expect(await values(1)).toEqual([1.25]);
    expect((await service.get('/actuators/0', { token })).body[0].last_activated).toBe(recorded);
    expect(witness.received.map((m) => m.topic)).toEqual(['sensorhub/sensors/1/measurements', 'sensorhub/sensors/2/measurements']);

    // Without a user the broker lets no one in.
    await expect(testClient(broker.url)).rejects.toThrow();
  });
});
