import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LINK_STATES } from '../mqtt/sharing.js';
import { PICTURE_HEALTH } from '../picture/health.js';
import { opsDocs as docs } from './docs.js';
import type { LinkState } from '../mqtt/sharing.js';
import type { PictureService } from '../picture/service.js';
import type { Store } from '../store/index.js';
import type { BackupStatus } from '../backup/index.js';
import type { ClaimService } from '../claims/index.js';

const PictureState = Type.Union(PICTURE_HEALTH.map((state) => Type.Literal(state)));
const MqttState = Type.Optional(Type.Union(LINK_STATES.map((state) => Type.Literal(state))));

/** What the operations routes are given: the store and the optional parts whose health they report. */
export interface OpsRouteDeps {
  store: Pick<Store, 'ping'>;
  services: { pictures: Pick<PictureService, 'health'>; claims: Pick<ClaimService, 'dosing'> };
  /** The state of the link to the MQTT broker, when MQTT is on. */
  mqttState?: () => LinkState;
  /** The newest good backup, when backups are on (null: none yet). */
  backupStatus?: () => BackupStatus | null;
}

const Backup = Type.Union(
  [
    Type.Object({
      at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the newest good backup was made.' }),
      bytes: Type.Union([Type.Integer(), Type.Null()]),
      ok: Type.Boolean({ description: 'False after a failed backup or while one is overdue (the backup alert is active).' }),
    }),
    Type.Null(),
  ],
  { description: 'The newest good backup; null when backups are off (BACKUP_DIR unset) or none was made yet.' },
);

const Dosing = Type.Union([Type.Literal('ok'), Type.Literal('held')], {
  description:
    'held while a dose cannot be recorded (the store refused or did not answer, or this instance lost the link to the others): pumps are told to wait.',
});

const opsRoutes: FastifyPluginAsyncTypebox<OpsRouteDeps> = async (
  app,
  { store, services: { pictures, claims }, mqttState, backupStatus },
) => {
  app.get('/healthz', {
    config: { access: 'public' },
    // The handler builds exactly the documented fields, so plain JSON says the same. The compiled
    // serializer of these unions would carry a validator of its own (about 1 MB), on the one
    // route every monitor polls.
    serializerCompiler: () => (data) => JSON.stringify(data),
    schema: {
      ...docs.health,
      response: {
        200: Type.Object({ status: Type.Literal('ok'), picture: PictureState, mqtt: MqttState, backup: Backup, dosing: Dosing }),
        503: Type.Object({
          status: Type.String(),
          detail: Type.String(),
          picture: PictureState,
          mqtt: MqttState,
          backup: Backup,
          dosing: Dosing,
        }),
      },
    },
    handler: async (_request, reply) => {
      const picture = pictures.health();
      // The broker's link is shown but does not decide the status: HTTP serves without it.
      const mqtt = mqttState?.();
      // Shown, not deciding the status either: a failed backup is an alert, the service still serves.
      const backup = backupStatus?.() ?? null;
      // Shown, not deciding the status: a held pump waits safely while the rest serves.
      if (await store.ping()) return { status: 'ok' as const, picture, mqtt, backup, dosing: claims.dosing() };
      return reply.code(503).send({ status: 'unavailable', detail: 'Database unavailable', picture, mqtt, backup, dosing: 'held' });
    },
  });
};

export default opsRoutes;
