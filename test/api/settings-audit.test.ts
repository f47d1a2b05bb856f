import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';
import { tokenFor } from '../helpers/tokens.js';

/** Every change of an actuator's or sensor's settings is a journal entry: who, what, from and to. On both stores. */
interface Entry {
  type: string;
  author: string | null;
  actuator_id: number | null;
  sensor_id: number | null;
  text: string | null;
}

describe.each(storeKinds())('settings audit (%s)', (kind) => {
  let service: TestService;
  let token: string;
  let nextTank = 400;
  const opts = () => ({ token });
  const ok = <T>(res: { status: number; body: T; text: string }) => {
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  async function tank() {
    const prototype_id = nextTank++;
    ok(await service.post('/prototypes', { prototype_id, prototype_name: `tank ${prototype_id}` }, opts()));
    const sensor = ok(
      await service.post(
        '/sensors/',
        {
          sensor_type: 'ph',
          prototype_id,
          sensor_unit: 'pH',
          threshold_critically_low: 4,
          threshold_low: 5,
          threshold_high: 7,
          threshold_critically_high: 8,
        },
        opts(),
      ),
    );
    const actuator = ok(
      await service.post(
        '/actuators',
        {
          actuator_type: 'acid_pump',
          sensor_id: sensor.sensor_id,
          condition_value: 6.5,
          activation_condition: 'high',
          activation_period: 60,
          activation_duration: 3,
        },
        opts(),
      ),
    );
    return { prototype_id, sensor, actuator };
  }
  const settingsEntries = async (prototypeId: number) =>
    ok(await service.get<Entry[]>(`/prototypes/${prototypeId}/journal?type=settings`, opts()));

  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced' } });
    token = await tokenFor(service.store, 'ana', 1 | 2 | 4);
  });
  afterAll(() => service?.close());

  it('records a pump’s and a sensor’s changed fields, from and to, with who changed them', async () => {
    const { prototype_id, sensor, actuator } = await tank();
    expect(await settingsEntries(prototype_id)).toEqual([]);
    ok(await service.patch('/actuators', [{ actuator_id: actuator.actuator_id, condition_value: 6.2, max_doses_per_hour: 4 }], opts()));
    ok(await service.patch('/sensors', [{ sensor_id: sensor.sensor_id, threshold_high: 7.5 }], opts()));
    const entries = await settingsEntries(prototype_id);
    expect(entries).toMatchObject([
      { type: 'settings', author: 'ana', sensor_id: sensor.sensor_id, actuator_id: null, text: 'threshold_high 7 → 7.5' },
      {
        type: 'settings',
        author: 'ana',
        actuator_id: actuator.actuator_id,
        sensor_id: null,
        text: 'condition_value 6.5 → 6.2; max_doses_per_hour none → 4',
      },
    ]);
    // In the journal by default, beside the other records.
    const all = ok(await service.get<Entry[]>(`/prototypes/${prototype_id}/journal`, opts()));
    expect(all.filter((e) => e.type === 'settings')).toHaveLength(2);
  });

  it('records nothing for a whole object sent back unchanged, one entry per element of a bulk change', async () => {
    const { prototype_id, sensor, actuator } = await tank();
    const [current] = ok(await service.get<Record<string, unknown>[]>(`/actuators/${prototype_id}`, opts()));
    ok(await service.patch('/actuators', [current], opts()));
    ok(await service.patch('/sensors', [sensor], opts()));
    expect(await settingsEntries(prototype_id)).toEqual([]);
    const second = ok(
      await service.post('/actuators', { ...actuator, actuator_id: undefined, lockout: undefined, last_polled: undefined }, opts()),
    );
    ok(
      await service.patch(
        '/actuators',
        [
          { actuator_id: actuator.actuator_id, enabled: false },
          { actuator_id: second.actuator_id, activation_duration: 5 },
        ],
        opts(),
      ),
    );
    expect((await settingsEntries(prototype_id)).map((e) => [e.actuator_id, e.text])).toEqual([
      [second.actuator_id, 'activation_duration 3 → 5'],
      [actuator.actuator_id, 'enabled true → false'],
    ]);
    // The pump's decision changed because of it: the change names who.
    const changes = await eventually(async () => {
      await service.app.decisionsRecorded();
      const list = ok(await service.get<{ reason: string; by: string | null }[]>(`/actuators/${actuator.actuator_id}/decisions`, opts()));
      return list[0]?.reason === 'disabled' && list;
    }, 'the disabled decision');
    expect(changes[0].by).toBe('ana');
  });

  it('writes nothing for a refused change (422, 404), nor for one without the permission', async () => {
    const { prototype_id, sensor, actuator } = await tank();
    const refused = [
      await service.patch('/actuators', [{ actuator_id: actuator.actuator_id, max_doses_per_hour: 0 }], opts()),
      await service.patch('/actuators', [{ actuator_id: actuator.actuator_id, condition_value: 6 }, { actuator_id: 999999 }], opts()),
      await service.patch('/sensors', [{ sensor_id: sensor.sensor_id, threshold_low: 9 }], opts()),
      await service.patch('/sensors', [{ sensor_id: sensor.sensor_id, threshold_high: 7.2 }, { sensor_id: 999999 }], opts()),
    ];
    expect(refused.map((r) => r.status)).toEqual([422, 404, 422, 404]);
    const reader = await tokenFor(service.store, `reader-${kind}`, 2);
    expect((await service.patch('/sensors', [{ sensor_id: sensor.sensor_id, threshold_high: 7.2 }], { token: reader })).status).toBe(403);
    expect(await settingsEntries(prototype_id)).toEqual([]);
  });

  it('names nobody in open mode', async () => {
    const open = await startService(kind);
    try {
      ok(await open.post('/prototypes', { prototype_id: 9, prototype_name: 'open' }));
      const body = {
        sensor_type: 'ec',
        prototype_id: 9,
        sensor_unit: 'mS/cm',
        threshold_critically_low: 0.5,
        threshold_low: 1,
        threshold_high: 2,
        threshold_critically_high: 3,
      };
      const sensor = ok(await open.post('/sensors/', body));
      ok(await open.patch('/sensors', [{ sensor_id: sensor.sensor_id, threshold_low: 1.2 }]));
      const entries = ok(await open.get<Entry[]>('/prototypes/9/journal?type=settings'));
      expect(entries).toMatchObject([{ author: null, text: 'threshold_low 1 → 1.2' }]);
    } finally {
      await open.close();
    }
  });
});
