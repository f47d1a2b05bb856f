/**
 * Device tokens limited to tanks (docs/api.md §6.1): a token whose `prototype_ids` is a list is
 * refused (403) for any prototype, sensor, actuator or measurement of another prototype — reads
 * and writes alike — and for what spans every prototype or cannot be placed in one (a list of
 * every prototype, the event stream, an export without a prototype). Runs after validation, so
 * ids are numbers; a sensor or actuator that does not exist places nothing and its route answers 404.
 */
import type { FastifyRequest } from 'fastify';
import { Forbidden } from '../core/errors.js';
import type { Store } from '../store/index.js';

/** Routes about the token itself, open to any valid token. */
const SELF = ['/users/items', '/users/logout', '/token'];
const isSelf = (url: string) => SELF.some((path) => url === path || url.startsWith(`${path}/`));

/** The ids a field names: numbers, and numeric strings too (a route may take them as they came). */
const ids = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value])
    .map((v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v))
    .filter((v): v is number => typeof v === 'number' && Number.isInteger(v));

type Touched = { prototypes: Set<number>; unplaceable: boolean };

async function touchedBy(request: FastifyRequest, store: Store): Promise<Touched> {
  const touched: Touched = { prototypes: new Set(), unplaceable: false };
  const sensorIds = new Set<number>();
  const actuatorIds = new Set<number>();
  const collect = (fields: unknown) => {
    if (!fields || typeof fields !== 'object') return;
    const f = fields as Record<string, unknown>;
    for (const id of ids(f.prototype_id)) touched.prototypes.add(id);
    for (const id of ids(f.sensor_id)) sensorIds.add(id);
    for (const id of ids(f.actuator_id)) actuatorIds.add(id);
    if (Array.isArray(f.interlocks))
      for (const interlock of f.interlocks) collect({ sensor_id: (interlock as { sensor_id?: unknown })?.sensor_id });
    if (f.measurement_id !== undefined) touched.unplaceable = true;
  };
  collect(request.params);
  collect(request.query);
  for (const item of Array.isArray(request.body) ? request.body : [request.body]) collect(item);

  for (const id of actuatorIds) {
    const actuator = await store.actuators.get(id);
    if (actuator) sensorIds.add(actuator.sensor_id);
  }
  for (const id of sensorIds) {
    const sensor = await store.sensors.get(id);
    if (sensor) touched.prototypes.add(sensor.prototype_id);
  }
  if (touched.prototypes.size === 0 && sensorIds.size === 0 && actuatorIds.size === 0) touched.unplaceable = true;
  return touched;
}

/** Throws 403 when the request's token is limited to tanks and the request reaches past them. */
export async function checkTankScope(request: FastifyRequest, store: Store): Promise<void> {
  const allowed = request.principal?.prototypeIds;
  if (!allowed) return;
  const url = request.routeOptions.url ?? '';
  if (isSelf(url)) return;
  const limited = `This token is limited to prototype${allowed.length === 1 ? '' : 's'} ${allowed.join(', ')}`;
  const touched = await touchedBy(request, store);
  if (touched.unplaceable) throw new Forbidden(`${limited}: this request is not about one of them`);
  const other = [...touched.prototypes].find((id) => !allowed.includes(id));
  if (other !== undefined) throw new Forbidden(`${limited}: prototype ${other} is not one of them`);
}
