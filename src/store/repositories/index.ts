import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';
import { activationRepository } from './activations.js';
import { actuatorRepository } from './actuators.js';
import { alertRepository } from './alerts.js';
import { calibrationRepository } from './calibrations.js';
import { decisionRepository } from './decisions.js';
import { deviceTokenRepository } from './device-tokens.js';
import { historyRepository } from './history.js';
import { interlockRepository } from './interlocks.js';
import { measurementRepository } from './measurements.js';
import { noteRepository } from './notes.js';
import { notificationRepository } from './notifications.js';
import { pictureRepository } from './pictures.js';
import { prototypeRepository } from './prototypes.js';
import { refillRepository } from './refills.js';
import { safetyEventRepository } from './safety-events.js';
import { sensorRepository } from './sensors.js';
import { settingRepository } from './settings.js';
import { settingsChangeRepository } from './settings-changes.js';
import { userRepository } from './users.js';

/** Each repository's maker, by the name the store and its transactions show it under. */
const MAKERS = {
  prototypes: prototypeRepository,
  sensors: sensorRepository,
  settings: settingRepository,
  measurements: measurementRepository,
  history: historyRepository,
  actuators: actuatorRepository,
  interlocks: interlockRepository,
  activations: activationRepository,
  refills: refillRepository,
  users: userRepository,
  deviceTokens: deviceTokenRepository,
  pictures: pictureRepository,
  alerts: alertRepository,
  calibrations: calibrationRepository,
  notes: noteRepository,
  safetyEvents: safetyEventRepository,
  notifications: notificationRepository,
  decisions: decisionRepository,
  settingsChanges: settingsChangeRepository,
} satisfies Record<string, (db: Kysely<Database>, dialect: Dialect) => object>;

type Name = keyof typeof MAKERS;
export type Repositories = { readonly [K in Name]: ReturnType<(typeof MAKERS)[K]> };

/**
 * Every repository, bound either to the store or to one transaction, each made when first used: a
 * transaction (one per alert evaluation, at every reading of a sensor out of range) then builds
 * only the two or three it touches, not all sixteen.
 */
class BoundRepositories {
  readonly made: Partial<Record<Name, object>> = {};
  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: Dialect,
  ) {}
}
for (const name of Object.keys(MAKERS) as Name[]) {
  Object.defineProperty(BoundRepositories.prototype, name, {
    get(this: BoundRepositories) {
      return (this.made[name] ??= MAKERS[name](this.db, this.dialect));
    },
  });
}

export function repositories(db: Kysely<Database>, dialect: Dialect): Repositories {
  return new BoundRepositories(db, dialect) as unknown as Repositories;
}
