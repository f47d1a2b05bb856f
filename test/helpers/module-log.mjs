// `node --import ./module-log.mjs …`: appends the URL of every module the process imports, one a
// line, to the file SENSORHUB_MODULE_LOG names. Plain JavaScript, so node loads it without tsx.
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url);
