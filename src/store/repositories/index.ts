import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';
import { actuatorRepository } from './actuators.js';
import { alertRepository } from './alerts.js';
import { historyRepository } from './history.js';
import { measurementRepository } from './measurements.js';
import { pictureRepository } from './pictures.js';
import { prototypeRepository } from './prototypes.js';
import { sensorRepository } from './sensors.js';
import { settingRepository } from './settings.js';
import { userRepository } from './users.js';

/** Every repository, bound either to the store or to one transaction. */
export function repositories(db: Kysely<Database>, dialect: Dialect) {
  return {
    prototypes: prototypeRepository(db),
    sensors: sensorRepository(db, dialect),
    settings: settingRepository(db),
    measurements: measurementRepository(db, dialect),
    history: historyRepository(db, dialect),
    actuators: actuatorRepository(db, dialect),
    users: userRepository(db, dialect),
    pictures: pictureRepository(db, dialect),
    alerts: alertRepository(db, dialect),
  };
}

export type Repositories = ReturnType<typeof repositories>;
