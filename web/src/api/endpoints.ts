/** Every call the dashboard makes, one function each, typed by the service's schemas. */
import { send, sendJson } from './client';
import { ApiError } from './errors';
import type {
  Actuator,
  ActuatorBase,
  ActuatorPatch,
  ActuatorState,
  DashboardSettings,
  ExportQuery,
  Measurement,
  Prototype,
  RandomMeasurements,
  RandomOutcome,
  Sensor,
  SensorBase,
  SensorPatch,
  TokenReply,
  WindowQuery,
} from './types';

export const api = {
  settings: () => sendJson<DashboardSettings>('GET', '/ui/settings.json'),

  prototypes: () => sendJson<Prototype[]>('GET', '/prototypes'),
  sensors: (prototypeId: number) => sendJson<Sensor[]>('GET', `/sensors/${prototypeId}`),
  createSensor: (sensor: SensorBase) => sendJson<Sensor>('POST', '/sensors/', { json: sensor }),
  updateSensors: (patches: SensorPatch[]) => sendJson<Sensor[]>('PATCH', '/sensors', { json: patches }),

  /** The newest measurement, or null when the sensor has none yet (the service answers 404). */
  lastMeasurement: (sensorId: number) => orNullWhenMissing(() => sendJson<Measurement>('GET', `/measurements/${sensorId}/last`)),
  measurements: (sensorId: number, window: WindowQuery) =>
    sendJson<Measurement[]>('GET', `/measurements/${sensorId}`, { query: { ...window } }),
  exportCsv: async (filters: ExportQuery): Promise<Blob> =>
    (await send('GET', '/measurements/export', { query: { ...filters } })).blob(),
  generate: (settings: Partial<RandomMeasurements>) =>
    sendJson<RandomOutcome>('POST', '/Measurement/Random', { json: settings }),

  actuators: (prototypeId: number) => sendJson<Actuator[]>('GET', `/actuators/${prototypeId}`),
  actuatorState: (actuatorId: number) => sendJson<ActuatorState>('GET', `/actuators/${actuatorId}/state`),
  createActuator: (actuator: ActuatorBase) => sendJson<Actuator>('POST', '/actuators', { json: actuator }),
  updateActuators: (patches: ActuatorPatch[]) => sendJson<Actuator[]>('PATCH', '/actuators', { json: patches }),
  deleteActuator: async (actuatorId: number): Promise<void> => {
    await send('DELETE', `/actuators/${actuatorId}`);
  },

  picture: async (): Promise<Blob> => (await send('GET', '/picture')).blob(),

  login: (username: string, password: string) =>
    sendJson<TokenReply>('POST', '/token', { form: { username, password, grant_type: 'password' } }),
  logout: async (): Promise<void> => {
    await send('POST', '/users/logout/');
  },
};

async function orNullWhenMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
