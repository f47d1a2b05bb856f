import type { Actuator, Sensor } from '../api/types';
import type { PermissionName } from './permissions';

/** One way for a device to talk to the service, with the lines to copy. */
export interface ConnectLine {
  label: string;
  text: string;
}

/** Everything a device needs to be set up for one sensor or actuator (docs/api.md §13 Connect). */
export interface ConnectInfo {
  serviceUrl: string;
  id: number;
  http: ConnectLine[];
  /** Null when the service joins no broker. */
  mqtt: ConnectLine[] | null;
  permission: PermissionName;
  /** The token the device must send: only in enforced mode. */
  needsToken: boolean;
}

/** A single-quoted shell word: the lines are pasted into a shell as they are. */
export const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

const TOKEN_HEADER = "-H 'Authorization: Bearer <device token>'";

/** A reading a grower recognises as normal for the sensor: the middle of its ok range. */
export function exampleValue(sensor: Pick<Sensor, 'threshold_low' | 'threshold_high'>): number {
  const middle = (sensor.threshold_low + sensor.threshold_high) / 2;
  return Math.round(middle * 100) / 100;
}

function curl(parts: (string | false)[]): string {
  return ['curl', ...parts.filter((p): p is string => p !== false)].join(' ');
}

export function sensorConnect(origin: string, sensor: Sensor, mqttPrefix: string | null | undefined, enforced: boolean): ConnectInfo {
  const value = exampleValue(sensor);
  const body = JSON.stringify({ sensor_id: sensor.sensor_id, value });
  return {
    serviceUrl: origin,
    id: sensor.sensor_id,
    http: [
      {
        label: 'Post a reading (HTTP)',
        text: curl([
          '-X POST',
          shellQuote(`${origin}/measurements`),
          "-H 'Content-Type: application/json'",
          enforced && TOKEN_HEADER,
          '-d',
          shellQuote(body),
        ]),
      },
    ],
    mqtt: mqttPrefix
      ? [
          { label: 'Topic', text: `${mqttPrefix}/sensors/${sensor.sensor_id}/measurements` },
          { label: 'Payload (a number)', text: String(value) },
        ]
      : null,
    permission: 'post_measurements',
    needsToken: enforced,
  };
}

export function actuatorConnect(origin: string, actuator: Actuator, mqttPrefix: string | null | undefined, enforced: boolean): ConnectInfo {
  const id = actuator.actuator_id;
  return {
    serviceUrl: origin,
    id,
    http: [
      {
        label: 'Poll the decision (every few seconds)',
        text: curl([shellQuote(`${origin}/actuators/${id}/state`), enforced && TOKEN_HEADER]),
      },
      {
        label: 'Report a run (right after running the pump)',
        text: curl(['-X PATCH', shellQuote(`${origin}/actuators/${id}/last_activated`), enforced && TOKEN_HEADER]),
      },
    ],
    mqtt: mqttPrefix
      ? [
          { label: 'Subscribe to the decision (retained)', text: `${mqttPrefix}/actuators/${id}/state` },
          { label: 'Publish to report a run (any payload)', text: `${mqttPrefix}/actuators/${id}/activated` },
        ]
      : null,
    permission: 'control',
    needsToken: enforced,
  };
}
