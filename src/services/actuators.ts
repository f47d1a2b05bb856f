import { type Activation, activationFor } from '../domain/activation.js';
import { ActuatorBase, type ActuatorPatch } from '../schemas/actuators.js';
import type { StoredActuator } from '../store/index.js';
import { patchAll } from './bulk-patch.js';
import type { ServiceDeps } from './deps.js';
import { NotFound } from './errors.js';

/** Every setting a patch may change; last_activated is the controller's own (`markActivated`). */
const PATCHABLE = Object.keys(ActuatorBase.properties) as (keyof ActuatorBase)[];

const actuatorNotFound = (id: number) => `Actuator ${id} not found`;

export function actuatorService({ store, bus, now }: ServiceDeps, staleAfterMs: number) {
  return {
    /** Registers a pump on an existing sensor; last_activated starts at the creation time. */
    async create(actuator: ActuatorBase): Promise<StoredActuator> {
      const created = await store.transaction(async (tx) => {
        if (!(await tx.sensors.get(actuator.sensor_id))) throw new NotFound(`Sensor ${actuator.sensor_id} not found`);
        return tx.actuators.create({
          ...actuator,
          actuator_name: actuator.actuator_name ?? null,
          enabled: actuator.enabled ?? true,
          last_activated: now(),
        });
      });
      bus.publish('actuator', { action: 'created', actuator: created });
      return created;
    },

    /** Partial bulk update of the settings, all or nothing. */
    async patch(patches: readonly ActuatorPatch[]): Promise<StoredActuator[]> {
      const updated = await store.transaction((tx) =>
        patchAll<StoredActuator, ActuatorPatch>(patches, {
          idOf: (patch) => patch.actuator_id,
          fields: PATCHABLE,
          rows: tx.actuators,
          notFound: actuatorNotFound,
          parent: {
            field: 'sensor_id',
            exists: async (id) => (await tx.sensors.get(id)) !== undefined,
            notFound: (id) => `Sensor ${id} not found`,
          },
        }),
      );
      for (const actuator of updated) bus.publish('actuator', { action: 'updated', actuator });
      return updated;
    },

    /** Whether the pump should run now, decided on its sensor's newest measurement. */
    async state(actuatorId: number): Promise<Activation> {
      const actuator = await store.actuators.get(actuatorId);
      if (!actuator) throw new NotFound(actuatorNotFound(actuatorId));
      const latest = await store.measurements.last(actuator.sensor_id);
      return activationFor(actuator, latest, now(), staleAfterMs);
    },

    /** The controller's report that the pump ran: last_activated becomes now. */
    async markActivated(actuatorId: number): Promise<StoredActuator> {
      const actuator = await store.actuators.markActivated(actuatorId, now());
      if (!actuator) throw new NotFound(actuatorNotFound(actuatorId));
      bus.publish('actuator', { action: 'activated', actuator });
      return actuator;
    },

    async remove(actuatorId: number): Promise<void> {
      if (!(await store.remove.actuator(actuatorId))) throw new NotFound(actuatorNotFound(actuatorId));
      bus.publish('actuator', { action: 'deleted', actuatorId });
    },

    /** The prototype's actuators (those whose sensor belongs to it), by actuator_id. */
    async listByPrototype(prototypeId: number): Promise<StoredActuator[]> {
      if (!(await store.prototypes.exists(prototypeId))) throw new NotFound(`Prototype ${prototypeId} not found`);
      return store.actuators.listByPrototype(prototypeId);
    },
  };
}
