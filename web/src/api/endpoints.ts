/** Every call the dashboard makes, one function each, typed by the service's schemas. */
import { send, sendJson } from './client';
import { ApiError } from './errors';
import type {
  ActivationListQuery,
  ActivationRecord,
  Actuator,
  ActuatorBase,
  ActuatorPatch,
  ActuatorState,
  AggregateBucket,
  AggregateQuery,
  Alert,
  AlertQuery,
  CreatedDeviceToken,
  DashboardSettings,
  DeviceToken,
  DeviceTokenRequest,
  ExportQuery,
  Measurement,
  NewUser,
  Pause,
  Prototype,
  PrototypeBase,
  PrototypeRenameBody,
  PrototypeStatus,
  RandomMeasurements,
  RandomOutcome,
  Sensor,
  SensorBase,
  SensorPatch,
  Timelapse,
  TimelapseConfig,
  TimelapseState,
  TokenReply,
  UserPatch,
  UserSummary,
  WindowQuery,
} from './types';

/** A username as one path segment (names may hold any printable character). */
const userPath = (username: string) => `/users/${encodeURIComponent(username)}`;

export const api = {
  settings: () => sendJson<DashboardSettings>('GET', '/ui/settings.json'),

  prototypes: () => sendJson<Prototype[]>('GET', '/prototypes'),
  prototype: (prototypeId: number) => sendJson<Prototype>('GET', `/prototypes/${prototypeId}`),
  /** Pauses dosing on the prototype for `seconds` (1 s to 24 h); a second pause replaces the first. */
  pause: (prototypeId: number, seconds: number) => sendJson<Pause>('POST', `/prototypes/${prototypeId}/pause`, { json: { for: seconds } }),
  resume: async (prototypeId: number): Promise<void> => {
    await send('DELETE', `/prototypes/${prototypeId}/pause`);
  },
  createPrototype: (prototype: PrototypeBase) => sendJson<Prototype>('POST', '/prototypes', { json: prototype }),
  renamePrototype: (prototypeId: number, rename: PrototypeRenameBody) =>
    sendJson<Prototype>('PATCH', `/prototypes/${prototypeId}`, { json: rename }),
  /** Without `cascade` the service refuses (409 with the counts in `dependents`) while the tank has sensors. */
  deletePrototype: async (prototypeId: number, cascade = false): Promise<void> => {
    await send('DELETE', `/prototypes/${prototypeId}`, { query: { cascade: cascade || undefined } });
  },
  sensors: (prototypeId: number) => sendJson<Sensor[]>('GET', `/sensors/${prototypeId}`),
  createSensor: (sensor: SensorBase) => sendJson<Sensor>('POST', '/sensors/', { json: sensor }),
  updateSensors: (patches: SensorPatch[]) => sendJson<Sensor[]>('PATCH', '/sensors', { json: patches }),
  /** Without `cascade` the service refuses (409 with the counts in `dependents`) while anything is below the sensor. */
  deleteSensor: async (sensorId: number, cascade = false): Promise<void> => {
    await send('DELETE', `/sensors/${sensorId}`, { query: { cascade: cascade || undefined } });
  },

  /** The newest measurement, or null when the sensor has none yet (the service answers 404). */
  lastMeasurement: (sensorId: number) => orNullWhenMissing(() => sendJson<Measurement>('GET', `/measurements/${sensorId}/last`)),
  measurements: (sensorId: number, window: WindowQuery) =>
    sendJson<Measurement[]>('GET', `/measurements/${sensorId}`, { query: { ...window } }),
  aggregate: (sensorId: number, query: AggregateQuery) =>
    sendJson<AggregateBucket[]>('GET', `/measurements/${sensorId}/aggregate`, { query: { ...query } }),
  exportCsv: async (filters: ExportQuery): Promise<Blob> => (await send('GET', '/measurements/export', { query: { ...filters } })).blob(),
  generate: (settings: Partial<RandomMeasurements>) => sendJson<RandomOutcome>('POST', '/Measurement/Random', { json: settings }),

  actuators: (prototypeId: number) => sendJson<Actuator[]>('GET', `/actuators/${prototypeId}`),
  actuatorState: (actuatorId: number) => sendJson<ActuatorState>('GET', `/actuators/${actuatorId}/state`),
  createActuator: (actuator: ActuatorBase) => sendJson<Actuator>('POST', '/actuators', { json: actuator }),
  updateActuators: (patches: ActuatorPatch[]) => sendJson<Actuator[]>('PATCH', '/actuators', { json: patches }),
  /** Doses, newest first. */
  activations: (actuatorId: number, query: ActivationListQuery) =>
    sendJson<ActivationRecord[]>('GET', `/actuators/${actuatorId}/activations`, { query: { ...query } }),
  unlock: (actuatorId: number) => sendJson<Actuator>('POST', `/actuators/${actuatorId}/unlock`),
  deleteActuator: async (actuatorId: number): Promise<void> => {
    await send('DELETE', `/actuators/${actuatorId}`);
  },

  picture: async (): Promise<Blob> => (await send('GET', '/picture')).blob(),

  timelapseStatus: () => sendJson<TimelapseState>('GET', '/timelapse/status'),
  timelapses: () => sendJson<Timelapse[]>('GET', '/timelapse'),
  startTimelapse: (config: TimelapseConfig) => sendJson<TimelapseState>('POST', '/timelapse/start', { json: config }),
  stopTimelapse: () => sendJson<TimelapseState>('POST', '/timelapse/stop'),
  /** The newest frame of the running timelapse, or null before its first. */
  latestFrame: () => orNullWhenMissing(async () => (await send('GET', '/timelapse/latest-frame')).blob()),
  timelapseVideo: async (id: string): Promise<Blob> => (await send('GET', `/timelapse/${encodeURIComponent(id)}/download`)).blob(),
  deleteTimelapse: async (id: string): Promise<void> => {
    await send('DELETE', `/timelapse/${encodeURIComponent(id)}`);
  },

  /** Only where the service has alerts (`features.alerts` in the settings). */
  alerts: (query: AlertQuery) => sendJson<Alert[]>('GET', '/alerts', { query: { ...query } }),
  acknowledgeAlert: (alertId: number) => sendJson<Alert>('POST', `/alerts/${alertId}/acknowledge`),
  /** Only where the service has it (`features.prototype_status`); otherwise the page reads the parts and computes the levels. */
  prototypeStatus: (prototypeId: number) => sendJson<PrototypeStatus>('GET', `/prototypes/${prototypeId}/status`),

  login: (username: string, password: string) =>
    sendJson<TokenReply>('POST', '/token', { form: { username, password, grant_type: 'password' } }),
  /** Ends the password sessions of the signed-in user; the user's device tokens stay valid. */
  logout: async (): Promise<void> => {
    await send('POST', '/users/logout/');
  },
  /** Only while the store has no user (enforced mode): that first user gets every permission. */
  createFirstAdmin: (username: string, password: string) =>
    sendJson<TokenReply>('POST', '/users/new/', { form: { username, password, grant_type: 'password' } }),
  /** The current session token for a new one with a fresh lifetime (up to SESSION_MAX_DAYS after the password). */
  refreshToken: () => sendJson<TokenReply>('POST', '/token/refresh'),

  users: () => sendJson<UserSummary[]>('GET', '/users'),
  addUser: (user: NewUser) => sendJson<UserSummary>('POST', '/users', { json: user }),
  changeUser: (username: string, patch: UserPatch) => sendJson<UserSummary>('PATCH', userPath(username), { json: patch }),
  /** The service refuses (409) to remove the last administrator. */
  deleteUser: async (username: string): Promise<void> => {
    await send('DELETE', userPath(username));
  },
  deviceTokens: (username: string) => sendJson<DeviceToken[]>('GET', `${userPath(username)}/tokens`),
  /** The answer holds the token itself: the only time the service ever shows it. */
  issueDeviceToken: (username: string, request: DeviceTokenRequest) =>
    sendJson<CreatedDeviceToken>('POST', `${userPath(username)}/tokens`, { json: request }),
  revokeDeviceToken: async (tokenId: number): Promise<void> => {
    await send('DELETE', `/tokens/${tokenId}`);
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
