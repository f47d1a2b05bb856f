import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';

/** Every operation of the seed, with its name and group. */
const SEED_OPERATIONS: [method: string, path: string, name: string, tag: string][] = [
  ['post', '/measurements', 'Post Measurement', 'Measurements'],
  ['get', '/measurements/export', 'Export All Sensors To Csv', 'Measurements'],
  ['get', '/measurements/{sensor_id}', 'Get Measurement', 'Measurements'],
  ['get', '/measurements/{sensor_id}/last', 'Get Last Measurement', 'Measurements'],
  ['post', '/Measurement/Random', 'Post Random Measurements', 'Measurements'],
  ['post', '/actuators', 'Post Actuator', 'Actuators'],
  ['patch', '/actuators', 'Update Actuators', 'Actuators'],
  ['get', '/actuators/{actuator_id}/state', 'Get Actuator State', 'Actuators'],
  ['patch', '/actuators/{actuator_id}/last_activated', 'Update Actuator Last Activated', 'Actuators'],
  ['get', '/actuators/{prototype_id}', 'Actuator', 'Actuators'],
  ['post', '/sensors/', 'Post Sensor', 'Sensors'],
  ['get', '/sensors/{prototype_id}', 'Sensors', 'Sensors'],
  ['patch', '/sensors', 'Update Sensors', 'Sensors'],
  ['get', '/prototypes', 'Prototypes', 'Prototypes'],
  ['post', '/prototypes', 'Post Prototype', 'Prototypes'],
  ['get', '/prototypes/{prototype_id}', 'Prototype', 'Prototypes'],
  ['get', '/picture', 'Picture', 'Users, tokens and picture'],
  ['post', '/token', 'Login For Access Token', 'Users, tokens and picture'],
  ['post', '/users/new/', 'Create User Access Token', 'Users, tokens and picture'],
  ['post', '/users/logout/', 'User Log Out', 'Users, tokens and picture'],
  ['get', '/users/items/', 'Read Items', 'Users, tokens and picture'],
];

describe('the OpenAPI document', () => {
  let service: TestService;
  let document: { paths: Record<string, Record<string, { summary?: string; tags?: string[]; operationId?: string }>> };
  beforeAll(async () => {
    service = await startService('sqlite');
    document = (await service.get('/openapi.json')).body;
  });
  afterAll(() => service?.close());

  it.each(SEED_OPERATIONS)('has %s %s as "%s" in %s', (method, path, name, tag) => {
    const operation = document.paths[path]?.[method];
    expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
    expect(operation.summary).toBe(name);
    expect(operation.tags).toEqual([tag]);
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it('gives every operation a distinct operationId', () => {
    const ids = Object.values(document.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
