import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actuatorWatch } from '../../src/alerts/actuator-watch.js';
import { changeBus } from '../../src/core/bus.js';
import type { Repositories } from '../../src/store/index.js';
import { startService, type TestService } from '../helpers/service.js';

/**
 * An actuator deleted while its alert change is under way (PostgreSQL, where another connection
 * commits the delete between the change's read and its insert): an expected race, not an error.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('an alert change racing the delete of its actuator (postgres)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService('postgres');
  });
  afterAll(() => service?.close());

  it('logs it at info, not error, and raises nothing', async () => {
    const created = await service.post('/actuators', {
      actuator_type: 'acid_pump',
      sensor_id: 2,
      condition_value: 6.5,
      activation_condition: 'high',
      activation_period: 0,
      activation_duration: 3,
    });
    const id = created.body.actuator_id as number;
    const lines: { level: string; details: object; message: string }[] = [];
    const record = (level: string) => (details: object, message: string) => lines.push({ level, details, message });
    const log = { info: record('info'), warn: record('warn'), error: record('error') };
    // The change reads the actuator, then the delete commits over HTTP on another connection.
    const store = {
      alerts: service.store.alerts,
      transaction: <T>(work: (tx: Repositories) => Promise<T>) =>
        service.store.transaction((tx) => {
          const actuators = {
            ...tx.actuators,
            get: async (actuatorId: number) => {
              const actuator = await tx.actuators.get(actuatorId);
              expect((await service.request('DELETE', `/actuators/${actuatorId}`)).status).toBe(204);
              return actuator;
            },
          };
          // The repositories are made as they are asked for: only the actuators' read is wrapped.
          return work(new Proxy(tx, { get: (target, name) => (name === 'actuators' ? actuators : target[name as keyof Repositories]) }));
        }),
    };
    const bus = changeBus();
    const watch = actuatorWatch({ store: store as never, bus, now: Date.now, log, webhookUrls: [] });
    await watch.start();
    bus.publish('decision', { actuator: { actuator_id: id }, state: { reason: 'limit', conditionMet: true } } as never);
    await watch.idle();
    await watch.stop();
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', details: expect.objectContaining({ actuatorId: id, kind: 'limit' }) }),
    ]);
    expect((await service.get('/alerts?state=all')).body.filter((a: { actuator_id: number }) => a.actuator_id === id)).toEqual([]);
  });
});
