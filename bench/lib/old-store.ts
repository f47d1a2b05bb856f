import SQLite from 'better-sqlite3';
import { Migrator } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../src/store/migrations/index.js';
import { openPostgres } from '../../src/store/postgres/connection.js';
import { postgresDialect } from '../../src/store/postgres/dialect.js';
import { openSqlite } from '../../src/store/sqlite/connection.js';
import { sqliteDialect } from '../../src/store/sqlite/dialect.js';

/**
 * A store of the release before the history buckets (migrated to `004_no_nul`) holding raw rows
 * only: prototype 0, sensors 1..`sensors` (temperature), and `rows` ([sensor_id, value, epoch ms])
 * written straight into the table. Opening it with the service's store then runs the upgrade
 * migration that builds the buckets, as on a real upgrade.
 */
export async function oldStore(url: string, sensors: number, rows: Iterable<[number, number, number]>): Promise<void> {
  const sqlite = url.startsWith('sqlite:');
  const { db } = sqlite ? openSqlite(url) : openPostgres(url);
  const dialect = sqlite ? sqliteDialect : postgresDialect;
  const { error } = await new Migrator({ db, provider: migrationProvider(dialect) }).migrateTo('004_no_nul');
  if (error) throw error;
  await db.insertInto('prototypes').values({ prototype_id: 0, prototype_name: 'bench' }).execute();
  for (let id = 1; id <= sensors; id++) {
    await db
      .insertInto('sensors')
      .values({
        sensor_id: id,
        sensor_type: 'temperature',
        prototype_id: 0,
        sensor_unit: 'Celsius',
        threshold_critically_low: 0,
        threshold_low: 10,
        threshold_high: 30,
        threshold_critically_high: 40,
      })
      .execute();
  }
  await db.destroy();
  if (sqlite) {
    const file = new SQLite(url.slice('sqlite:'.length));
    const insert = file.prepare('insert into measurements (sensor_id, value, timestamp) values (?, ?, ?)');
    file.transaction(() => {
      for (const r of rows) insert.run(...r);
    })();
    file.pragma('wal_checkpoint(TRUNCATE)');
    file.close();
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let batch: [number[], number[], number[]] = [[], [], []];
  const flush = async () => {
    await client.query(
      `insert into measurements (sensor_id, value, timestamp)
       select u.id, u.v, timestamptz 'epoch' + u.ms * interval '1 millisecond' from unnest($1::int4[], $2::float8[], $3::int8[]) as u(id, v, ms)`,
      batch,
    );
    batch = [[], [], []];
  };
  for (const [id, v, t] of rows) {
    batch[0].push(id);
    batch[1].push(v);
    batch[2].push(t);
    if (batch[0].length === 50_000) await flush();
  }
  if (batch[0].length > 0) await flush();
  await client.query('analyze measurements');
  await client.end();
}
