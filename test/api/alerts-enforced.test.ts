import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

describe.each(storeKinds())('alerts in AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  let editor: string;
  let reader: string;
  let device: string;
  let alertId: number;
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
    editor = await tokenFor(service.store, 'grower', 2 | 4);
    reader = await tokenFor(service.store, 'viewer', 2);
    device = await tokenFor(service.store, 'probe', 1);
    // Default sensor 1 is ec (0, 1, 2, 3): 5 is critically high.
    expect((await service.post('/measurements', { sensor_id: 1, value: 5 }, { token: device })).status).toBe(200);
    await service.app.alertsSettled();
    alertId = (await service.get('/alerts', { token: reader })).body[0].alert_id;
  });
  afterAll(() => service?.close());

  it('reads need the read permission (2)', async () => {
    for (const path of ['/alerts', `/alerts/${alertId}`, '/prototypes/0/status']) {
      expect((await service.get(path)).status, path).toBe(401);
      expect((await service.get(path, { token: device })).status, path).toBe(403);
      expect((await service.get(path, { token: reader })).status, path).toBe(200);
    }
  });

  it('acknowledging needs modify (4), changes nothing without it, and records the user with it', async () => {
    expect((await service.post(`/alerts/${alertId}/acknowledge`)).status).toBe(401);
    const refused = await service.post(`/alerts/${alertId}/acknowledge`, undefined, { token: reader });
    expect(refused.status).toBe(403);
    expect((await service.get(`/alerts/${alertId}`, { token: reader })).body).toMatchObject({
      acknowledged_at: null,
      acknowledged_by: null,
    });
    const ack = await service.post(`/alerts/${alertId}/acknowledge`, undefined, { token: editor });
    expect(ack.status).toBe(200);
    expect(ack.body.acknowledged_by).toBe('grower');
    expect(ack.body.acknowledged_at).not.toBeNull();
  });
});
