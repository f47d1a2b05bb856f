import { doc } from '../http/route-doc.js';

const PROTOTYPES = 'Prototypes';

export const prototypeDocs = {
  list: doc(PROTOTYPES, 'Prototypes', 'prototypes', 'All prototypes, by prototype_id.'),
  post: doc(PROTOTYPES, 'Post Prototype', 'postPrototype', 'Creates a prototype with the id the client chose. 409 when the id is taken.'),
  rename: doc(
    PROTOTYPES,
    'Rename Prototype',
    'renamePrototype',
    'Renames the prototype (prototype_name: 1 to 200 characters). 200 with the prototype; 404 when it does not exist; 422 ' +
      'for a bad name, nothing written then. Needs modify (4) in AUTH_MODE=enforced.',
  ),
  get: doc(
    PROTOTYPES,
    'Prototype',
    'prototype',
    'The prototype. paused_until is when its dosing pause ends, or null when it is not paused (or the pause has ended).',
  ),
  pause: doc(
    PROTOTYPES,
    'Pause Prototype',
    'pausePrototype',
    'Pauses dosing on the prototype: every actuator of it answers activate: false (reason paused) until paused_until. ' +
      'Body {"for": duration}: seconds as a number, or a duration text (ISO 8601 such as PT30M, 02:00:00, 1d); 1 second ' +
      'to 24 hours, else 422. A second pause replaces the first (from now). The pause ends by itself at paused_until. ' +
      'Recorded in the journal (with the user in enforced mode). 404 when the prototype does not exist. Needs the modify ' +
      'permission in enforced mode.',
  ),
  resume: doc(
    PROTOTYPES,
    'Resume Prototype',
    'resumePrototype',
    'Ends the pause now (204 without a body, also when it was not paused). Ending a pause still running is recorded in ' +
      'the journal as a resume. 404 when the prototype does not exist. Needs the modify permission in enforced mode.',
  ),
  remove: doc(
    PROTOTYPES,
    'Delete Prototype',
    'deletePrototype',
    'Deletes the prototype. 204 without a body; 404 when it does not exist. While it has sensors or notes: 409 with a ' +
      'detail that counts its sensors, actuators, measurements and notes, and the counts as data in `dependents`, unless ' +
      'cascade=true, which deletes all of them with it in one transaction (its journal goes with it: notes, pauses, and ' +
      'the doses, calibrations, lockouts and unlocks of what it held). The default prototype 0 is not special: deleted, it ' +
      'is not created again.',
  ),
};
