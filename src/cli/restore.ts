/** `sensorhub restore FILE` (`npm run restore -- FILE`): a backup in place of the stopped SQLite store (see backup-command.ts). */
import { restoreMain } from './backup-command.js';
import { isEntry, runAsEntry } from './entry.js';

export const main = restoreMain;

if (isEntry(import.meta.url)) runAsEntry(main);
