import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/** The aim settings of an actuator (set point, sizing, sequence, schedule): round trip and bad input, on both stores, over HTTP. */
const NOW = Date.UTC(2026, 10, 22, 12);
const pump = {
  actuator_type: 'acid_pump',
  sensor_id: 2,
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 0,
  activation_duration: 10,
};
const DEFAULTS = {
  setpoint: null,
  band: 0,
  dose_mode: 'fixed',
  dose_fraction: 0.8,
  min_duration: 1,
  max_duration: null,
  initial_gain: null,
  dose_order: null,
  schedule: null,
  learned_gain: null,
};

describe.each(storeKinds())('aim settings (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
    service.clock.now = NOW;
  });
  afterAll(() => service?.close());

  const actuatorsOf0 = async () => (await service.get('/actuators/0')).body as Record<string, any>[];
  const create = async (fields: Record<string, unknown> = {}) => {
    const res = await service.post('/actuators', { ...pump, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('defaults: no set point, fixed doses, not sequenced, no schedule', async () => {
    expect(await create()).toMatchObject(DEFAULTS);
  });

  it('round-trip through create, read and patch', async () => {
    const aims = {
      setpoint: 6.0,
      band: 0.15,
      dose_mode: 'proportional',
      dose_fraction: 0.5,
      min_duration: 0.5,
      max_duration: 20,
      initial_gain: 0.02,
      dose_order: 3,
    };
    const created = await create(aims);
    expect(created).toMatchObject(aims);
    expect((await actuatorsOf0()).find((a) => a.actuator_id === created.actuator_id)).toEqual(created);
    const patched = await service.patch('/actuators', [{ actuator_id: created.actuator_id, band: 0.3, dose_order: null }]);
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual([{ ...created, band: 0.3, dose_order: null }]);
  });

  it('timed outputs: new types and the schedule condition, each kind of schedule', async () => {
    const light = await create({ actuator_type: 'light', activation_condition: 'schedule', schedule: { on: '06:00', hours: 16 } });
    expect(light).toMatchObject({ actuator_type: 'light', activation_condition: 'schedule', schedule: { on: '06:00', hours: 16 } });
    const cycles = { every: 3600, for: 300, between: ['06:00', '22:30'] };
    expect(await create({ actuator_type: 'irrigation_pump', activation_condition: 'schedule', schedule: cycles })).toMatchObject({
      schedule: cycles,
    });
    expect(await create({ actuator_type: 'fan', activation_condition: 'schedule', schedule: { from_recipe: true } })).toMatchObject({
      schedule: { from_recipe: true },
    });
    for (const type of ['valve', 'heater']) expect((await create({ actuator_type: type })).actuator_type).toBe(type);
  });

  const refused: [string, Record<string, unknown>, (string | number)[]][] = [
    ['a negative band', { band: -0.1 }, ['body', 'band']],
    ['min_duration over max_duration', { min_duration: 5, max_duration: 2 }, ['body', 'min_duration']],
    ['dose_fraction 0', { dose_fraction: 0 }, ['body', 'dose_fraction']],
    ['dose_fraction over 1', { dose_fraction: 1.01 }, ['body', 'dose_fraction']],
    ['an unknown dose_mode', { dose_mode: 'guess' }, ['body', 'dose_mode']],
    ['proportional without a set point', { dose_mode: 'proportional' }, ['body', 'setpoint']],
    ['a zero initial_gain', { initial_gain: 0 }, ['body', 'initial_gain']],
    ['a negative dose_order', { dose_order: -1 }, ['body', 'dose_order']],
    ['a fractional dose_order', { dose_order: 1.5 }, ['body', 'dose_order']],
    ['a schedule condition without a schedule', { activation_condition: 'schedule' }, ['body', 'schedule']],
    ['a daily schedule without hours', { activation_condition: 'schedule', schedule: { on: '06:00' } }, ['body', 'schedule']],
    ['cycles without for', { activation_condition: 'schedule', schedule: { every: 60 } }, ['body', 'schedule']],
    ['a time not HH:MM', { activation_condition: 'schedule', schedule: { on: '6:00', hours: 2 } }, ['body', 'schedule']],
    ['a time past 23:59', { activation_condition: 'schedule', schedule: { on: '24:00', hours: 2 } }, ['body', 'schedule']],
    [
      'a between not HH:MM',
      { activation_condition: 'schedule', schedule: { every: 60, for: 5, between: ['06:00', '25:00'] } },
      ['body', 'schedule'],
    ],
    [
      'a schedule of two kinds',
      { activation_condition: 'schedule', schedule: { on: '06:00', hours: 2, every: 60, for: 5 } },
      ['body', 'schedule'],
    ],
    ['an empty schedule', { activation_condition: 'schedule', schedule: {} }, ['body', 'schedule']],
    ['from_recipe false', { activation_condition: 'schedule', schedule: { from_recipe: false } }, ['body', 'schedule']],
    ['more than 24 hours', { activation_condition: 'schedule', schedule: { on: '06:00', hours: 25 } }, ['body', 'schedule']],
  ];

  const locs = (body: { detail: { loc: (string | number)[] }[] }) => body.detail.map((d) => d.loc.slice(0, 3).join('.'));

  it.each(refused)('refuse %s with 422 on create, writing nothing', async (_what, fields, loc) => {
    const before = await actuatorsOf0();
    const res = await service.post('/actuators', { ...pump, ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(locs(res.body).some((l) => l.startsWith(loc.join('.')))).toBe(true);
    expect(await actuatorsOf0()).toEqual(before);
  });

  it.each(refused)('refuse %s with 422 on patch, writing nothing of the whole batch', async (_what, fields) => {
    const target = await create();
    const before = await actuatorsOf0();
    const res = await service.patch('/actuators', [
      { actuator_id: target.actuator_id, band: 2 },
      { actuator_id: target.actuator_id, ...fields },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(await actuatorsOf0()).toEqual(before);
  });
});
