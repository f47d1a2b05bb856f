/** `sensorhub backup [FILE]` (`npm run backup -- [FILE]`): a checked copy of the store now (see backup-command.ts). */
import { backupMain } from './backup-command.js';
import { isEntry, runAsEntry } from './entry.js';

export const main = backupMain;

if (isEntry(import.meta.url)) runAsEntry(main);
