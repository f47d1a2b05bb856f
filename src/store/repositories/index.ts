import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { Dialect } from '../dialect.js';
import { activationRepository } from './activations.js';
import { actuatorRepository } from './actuators.js';
import { alertRepository } from './alerts.js';
import { calibrationRepository } from './calibrations.js';
import { deviceTokenRepository } from './device-tokens.js';
import { historyRepository } from './history.js';
import { interlockRepository } from './interlocks.js';
import { measurementRepository } from './measurements.js';
import { noteRepository } from './notes.js';
import { pictureRepository } from './pictures.js';
import { prototypeRepository } from './prototypes.js';
import { refillRepository } from './refills.js';
import { safetyEventRepository } from './safety-events.js';
import { sensorRepository } from './sensors.js';
import { settingRepository } from './settings.js';
import { userRepository } from './users.js';

/** Every repository, bound either to the store or to one transaction. */
export function repositories(db: Kysely<Database>, dialect: Dialect) {
  return {
    prototypes: prototypeRepository(db, dialect),
    sensors: sensorRepository(db, dialect),
    settings: settingRepository(db),
    measurements: measurementRepository(db, dialect),
    history: historyRepository(db, dialect),
    actuators: actuatorRepository(db, dialect),
    interlocks: interlockRepository(db),
    activations: activationRepository(db, dialect),
    refills: refillRepository(db, dialect),
    users: userRepository(db, dialect),
    deviceTokens: deviceTokenRepository(db, dialect),
    pictures: pictureRepository(db, dialect),
    alerts: alertRepository(db, dialect),
    calibrations: calibrationRepository(db, dialect),
    notes: noteRepository(db, dialect),
    safetyEvents: safetyEventRepository(db, dialect),
  };
}

export type Repositories = ReturnType<typeof repositories>;
