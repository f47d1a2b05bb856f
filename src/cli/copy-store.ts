/**
 * Copies a whole store into another, typically an existing SQLite file into PostgreSQL:
 * `sensorhub copy-store --from sqlite:./data/sensorhub.db --to postgres://…` (or `npm run copy-store -- …`).
 */
import { parseArgs } from 'node:util';
import { copyStore, emptyStore, openStore, rowCounts, type Store } from '../store/index.js';
import { isEntry, runAsEntry } from './entry.js';

const HELP = `Usage: sensorhub copy-store --from URL --to URL [--force]   (in a checkout: npm run copy-store -- …)

Copies every prototype, sensor, actuator, user, setting, picture and measurement from one store to
another (sqlite:<file> or postgres://…), migrating the target first. The target must be empty;
--force empties it first. Row counts are checked at the end.
Exit codes: 0 copied, 1 refused or failed, 2 wrong usage.`;

/** Runs one copy; resolves to its exit code. */
export async function main(argv: string[]): Promise<number> {
  let values: { from?: string; to?: string; force?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { from: { type: 'string' }, to: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    console.error(`copy-store: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.from || !values.to) {
    console.error(`copy-store: --from and --to are both needed\n\n${HELP}`);
    return 2;
  }
  let from: Store | undefined;
  let to: Store | undefined;
  try {
    from = await openStore(values.from, { seedDefaults: false });
    to = await openStore(values.to, { seedDefaults: false });
    const existing = await rowCounts(to);
    const occupied = Object.entries(existing).filter(([, n]) => n > 0);
    if (occupied.length > 0) {
      if (!values.force) {
        console.error(
          `copy-store: the target is not empty (${occupied.map(([t, n]) => `${t}: ${n}`).join(', ')}); --force empties it first`,
        );
        return 1;
      }
      console.error('copy-store: emptying the target');
      await emptyStore(to);
    }
    const started = Date.now();
    let last = 0;
    const totals = await copyStore(from, to, (table, copied, total) => {
      if (copied === total || Date.now() - last > 1000) {
        last = Date.now();
        console.error(`copy-store: ${table} ${copied.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`);
      }
    });
    const copied = await rowCounts(to);
    const mismatched = Object.keys(totals).filter((t) => totals[t as keyof typeof totals] !== copied[t as keyof typeof copied]);
    if (mismatched.length > 0) {
      console.error(`copy-store: row counts differ for ${mismatched.join(', ')}`);
      return 1;
    }
    const rows = Object.values(copied).reduce((a, b) => a + b, 0);
    console.log(`copied ${rows.toLocaleString('en-US')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s; counts verified`);
    return 0;
  } catch (error) {
    console.error(`copy-store: ${(error as Error).message}`);
    return 1;
  } finally {
    await from?.close();
    await to?.close();
  }
}

if (isEntry(import.meta.url)) runAsEntry(main);
