/**
 * The prototype the simulated tank belongs to, made through the API: found or created, with its
 * four sensors (ph, ec, temperature, water_level) and an acid pump on the pH sensor. Existing
 * sensors and pumps are reused, so a live run on a seeded install drives the sensors the
 * dashboard already shows.
 */
import { type Api, expectOk } from './api.js';

export const TANK_SENSORS = ['ph', 'ec', 'temperature', 'water_level'] as const;
export type TankSensor = (typeof TANK_SENSORS)[number];

export type DeviceIds = Record<TankSensor | 'acid_pump', number>;

interface SensorDefaults {
  sensor_unit: string;
  threshold_critically_low: number;
  threshold_low: number;
  threshold_high: number;
  threshold_critically_high: number;
}

/** Thresholds of the sensors the simulator creates: a lettuce tank's usual bands. */
export const SENSOR_DEFAULTS: Record<TankSensor, SensorDefaults> = {
  ph: { sensor_unit: 'pH', threshold_critically_low: 4, threshold_low: 5.5, threshold_high: 7, threshold_critically_high: 8.5 },
  ec: { sensor_unit: 'mS/cm', threshold_critically_low: 0.5, threshold_low: 1, threshold_high: 2.5, threshold_critically_high: 3.5 },
  temperature: {
    sensor_unit: 'Celsius',
    threshold_critically_low: 10,
    threshold_low: 16,
    threshold_high: 26,
    threshold_critically_high: 32,
  },
  water_level: { sensor_unit: '%', threshold_critically_low: 10, threshold_low: 25, threshold_high: 95, threshold_critically_high: 100 },
};

/** The acid pump as the issue describes it: above pH 6.5, every 5 minutes at most, 2 s a run. */
export const PUMP_DEFAULTS = {
  actuator_type: 'acid_pump',
  condition_value: 6.5,
  activation_condition: 'high',
  activation_period: 300,
  activation_duration: 2,
  enabled: true,
} as const;

export interface SetupOptions {
  prototypeId: number;
  prototypeName?: string;
  /** Ids to use as they are instead of finding or creating them. */
  ids?: Partial<DeviceIds>;
  /** Further fields of the pump (the safety settings of a scenario), given the sensor ids. */
  pump?: (sensors: Record<TankSensor, number>) => Record<string, unknown>;
  /** Told what was found or made. */
  note?: (line: string) => void;
}

export async function setupTank(api: Api, options: SetupOptions): Promise<DeviceIds> {
  const { prototypeId } = options;
  const note = options.note ?? (() => {});
  const prototype = await api('GET', `/prototypes/${prototypeId}`);
  if (prototype.status === 404) {
    const name = options.prototypeName ?? 'Simulated tank';
    await expectOk<unknown>('create the prototype', api('POST', '/prototypes', { prototype_id: prototypeId, prototype_name: name }));
    note(`created prototype ${prototypeId} "${name}"`);
  } else if (prototype.status !== 200) {
    await expectOk(`read prototype ${prototypeId}`, Promise.resolve(prototype));
  }

  const existing = await expectOk<{ sensor_id: number; sensor_type: string }[]>('list the sensors', api('GET', `/sensors/${prototypeId}`));
  const sensors = {} as Record<TankSensor, number>;
  for (const type of TANK_SENSORS) {
    const given = options.ids?.[type];
    const found = given ?? existing.find((sensor) => sensor.sensor_type === type)?.sensor_id;
    if (found !== undefined) {
      sensors[type] = found;
      continue;
    }
    const made = await expectOk<{ sensor_id: number }>(
      `create the ${type} sensor`,
      api('POST', '/sensors/', { sensor_type: type, prototype_id: prototypeId, ...SENSOR_DEFAULTS[type] }),
    );
    sensors[type] = made.sensor_id;
    note(`created ${type} sensor ${made.sensor_id}`);
  }

  const pump = { ...PUMP_DEFAULTS, sensor_id: sensors.ph, ...options.pump?.(sensors) };
  let pumpId = options.ids?.acid_pump;
  if (pumpId === undefined) {
    const actuators = await expectOk<{ actuator_id: number; actuator_type: string; sensor_id: number }[]>(
      'list the actuators',
      api('GET', `/actuators/${prototypeId}`),
    );
    pumpId = actuators.find((a) => a.actuator_type === 'acid_pump' && a.sensor_id === sensors.ph)?.actuator_id;
  }
  if (pumpId === undefined) {
    const made = await expectOk<{ actuator_id: number }>(
      'create the acid pump',
      api('POST', '/actuators', { actuator_name: 'Acid pump', ...pump }),
    );
    pumpId = made.actuator_id;
    note(`created acid pump ${pumpId} on pH sensor ${sensors.ph}`);
  } else {
    // The run drives the pump as its scenario says: enabled, on the pH sensor, with its settings.
    await expectOk(`set up acid pump ${pumpId}`, api('PATCH', '/actuators', [{ actuator_id: pumpId, ...pump }]));
    note(`using acid pump ${pumpId} (enabled, high above ${pump.condition_value})`);
  }
  return { ...sensors, acid_pump: pumpId };
}
