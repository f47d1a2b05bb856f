import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { basePumpBody, phSensorBody } from '../helpers/bodies.js';

const sensorBody = phSensorBody;

/** Sends bytes as they are (what fetch would refuse to send) and returns the raw answer. */
function rawRequest(url: string, request: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    // The server may close before all of an over-long request is written: what it answered counts.
    socket.on('error', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.write(request);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
const statusOf = (answer: string) => Number(answer.split(' ')[1]);

describe.each(storeKinds())('errors before routing and path ids (%s)', (kind) => {
  let service: TestService;
  let sensor: number;
  let actuator: number;
  beforeAll(async () => {
    service = await startService(kind);
    sensor = (await service.post('/sensors/', sensorBody)).body.sensor_id;
    await service.post('/measurements', { sensor_id: sensor, value: 6 });
    actuator = (await service.post('/actuators', basePumpBody(sensor))).body.actuator_id;
  });
  afterAll(() => service?.close());

  describe('errors of the HTTP layer answer {"detail": …}', () => {
    it('a bad %-encoding is a 400', async () => {
      for (const path of ['/measurements/%zz', '/prototypes/%E0%A4%A', '/sensors/%']) {
        const res = await service.get(path);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: { detail: expect.any(String) } });
      }
    });

    it('an over-long path parameter is a 414', async () => {
      const res = await service.get(`/measurements/${'1'.repeat(300)}`);
      expect(res.status).toBe(414);
      expect(res.body).toEqual({ detail: 'A path parameter is too long' });
    });

    it('a request line Node cannot parse, or a URL larger than the header limit, gets a detail body', async () => {
      const malformed = await rawRequest(service.url, 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(statusOf(malformed)).toBe(400);
      expect(bodyOf(malformed)).toEqual({ detail: 'Malformed HTTP request' });
      const huge = await rawRequest(service.url, `GET /prototypes/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(statusOf(huge)).toBe(431);
      expect(bodyOf(huge)).toEqual({ detail: expect.any(String) });
    });

    it('an unknown path stays a 404 with a detail', async () => {
      const res = await service.get('/no/such/path');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not Found' });
    });
  });

  describe('a path id is ASCII digits only', () => {
    /** Ways to write an id that are not its digits alone (the last: a fullwidth "1"). */
    const spellings = (id: number) => [
      `%20${id}`,
      `${id}%20`,
      `+${id}`,
      `${id}%0A`,
      `${id}%09`,
      `%0A${id}`,
      `${id}.0`,
      `${id}e0`,
      '%EF%BC%91',
    ];
    const routes = () => [
      (id: string) => `/measurements/${id}`,
      (id: string) => `/measurements/${id}/last`,
      (id: string) => `/actuators/${id}/state`,
      (id: string) => `/actuators/${id}`,
      (id: string) => `/sensors/${id}`,
      (id: string) => `/prototypes/${id}`,
    ];

    it('answers 422 for any other spelling of an id, on every GET route with an id', async () => {
      for (const route of routes()) {
        for (const id of spellings(1)) {
          const path = route(id);
          const res = await service.get(path);
          expect({ path, status: res.status }).toEqual({ path, status: 422 });
          expect(res.body.detail[0].loc[0]).toBe('path');
        }
      }
      // The plain spelling, leading zeros included, still works.
      expect((await service.get(`/measurements/${sensor}/last`)).status).toBe(200);
      expect((await service.get(`/actuators/00${actuator}/state`)).status).toBe(200);
    });

    it('writes nothing through PATCH /actuators/{id}/last_activated with such an id', async () => {
      const before = (await service.get('/actuators/0')).body;
      for (const id of spellings(actuator)) {
        const res = await service.patch(`/actuators/${id}/last_activated`);
        expect({ id, status: res.status }).toEqual({ id, status: 422 });
      }
      expect((await service.get('/actuators/0')).body).toEqual(before);
    });
  });
});
