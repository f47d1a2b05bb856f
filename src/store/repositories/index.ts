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

/**
 * Every repository, bound either to the store or to one transaction, each made when first used: a
 * transaction (one per alert evaluation, at every reading of a sensor out of range) then builds
 * only the two or three it touches, not all sixteen.
 */
class BoundRepositories {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}
  #prototypes?: ReturnType<typeof prototypeRepository>;
  get prototypes() {
    return (this.#prototypes ??= prototypeRepository(this.db, this.dialect));
  }
  #sensors?: ReturnType<typeof sensorRepository>;
  get sensors() {
    return (this.#sensors ??= sensorRepository(this.db, this.dialect));
  }
  #settings?: ReturnType<typeof settingRepository>;
  get settings() {
    return (this.#settings ??= settingRepository(this.db));
  }
  #measurements?: ReturnType<typeof measurementRepository>;
  get measurements() {
    return (this.#measurements ??= measurementRepository(this.db, this.dialect));
  }
  #history?: ReturnType<typeof historyRepository>;
  get history() {
    return (this.#history ??= historyRepository(this.db, this.dialect));
  }
  #actuators?: ReturnType<typeof actuatorRepository>;
  get actuators() {
    return (this.#actuators ??= actuatorRepository(this.db, this.dialect));
  }
  #interlocks?: ReturnType<typeof interlockRepository>;
  get interlocks() {
    return (this.#interlocks ??= interlockRepository(this.db));
  }
  #activations?: ReturnType<typeof activationRepository>;
  get activations() {
    return (this.#activations ??= activationRepository(this.db, this.dialect));
  }
  #refills?: ReturnType<typeof refillRepository>;
  get refills() {
    return (this.#refills ??= refillRepository(this.db, this.dialect));
  }
  #users?: ReturnType<typeof userRepository>;
  get users() {
    return (this.#users ??= userRepository(this.db, this.dialect));
  }
  #deviceTokens?: ReturnType<typeof deviceTokenRepository>;
  get deviceTokens() {
    return (this.#deviceTokens ??= deviceTokenRepository(this.db, this.dialect));
  }
  #pictures?: ReturnType<typeof pictureRepository>;
  get pictures() {
    return (this.#pictures ??= pictureRepository(this.db, this.dialect));
  }
  #alerts?: ReturnType<typeof alertRepository>;
  get alerts() {
    return (this.#alerts ??= alertRepository(this.db, this.dialect));
  }
  #calibrations?: ReturnType<typeof calibrationRepository>;
  get calibrations() {
    return (this.#calibrations ??= calibrationRepository(this.db, this.dialect));
  }
  #notes?: ReturnType<typeof noteRepository>;
  get notes() {
    return (this.#notes ??= noteRepository(this.db, this.dialect));
  }
  #safetyEvents?: ReturnType<typeof safetyEventRepository>;
  get safetyEvents() {
    return (this.#safetyEvents ??= safetyEventRepository(this.db, this.dialect));
  }
}

export type Repositories = Pick<
  BoundRepositories,
  | 'prototypes'
  | 'sensors'
  | 'settings'
  | 'measurements'
  | 'history'
  | 'actuators'
  | 'interlocks'
  | 'activations'
  | 'refills'
  | 'users'
  | 'deviceTokens'
  | 'pictures'
  | 'alerts'
  | 'calibrations'
  | 'notes'
  | 'safetyEvents'
>;

export function repositories(db: Kysely<Database>, dialect: Dialect): Repositories {
  return new BoundRepositories(db, dialect);
}
