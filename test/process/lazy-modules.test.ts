import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnService } from '../helpers/process.js';
import { scratchDatabase } from '../helpers/stores.js';

const MODULE_LOG = ['--import', new URL('../helpers/module-log.mjs', import.meta.url).href];
const OPTIONAL = [
  'pg',
  'pg-cursor',
  'mqtt',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/busboy',
  '@node-rs/argon2',
  'jose',
  '@sinclair/typebox/build/esm/value/check',
];

/** The packages among `names` a process has imported so far, by its module log. */
function loaded(logFile: string, names: string[]): string[] {
  const urls = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  return names.filter((name) => urls.includes(`/node_modules/${name}/`));
}

// What a small board keeps in memory (docs/api.md §16): the optional parts load only when used.
describe('optional parts of the service', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'sensorhub-lazy-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('are not loaded by a SQLite service without MQTT; the documentation, forms, passwords and tokens load when first used', async () => {
    const log = join(root, 'sqlite.log');
    const service = await spawnService(
      { DATABASE_URL: `sqlite:${join(root, 'sensorhub.db')}`, SENSORHUB_MODULE_LOG: log, MQTT_URL: '' },
      60_000,
      MODULE_LOG,
    );
    try {
      // The log sees what the service needs: the SQLite driver.
      expect(loaded(log, ['better-sqlite3'])).toEqual(['better-sqlite3']);
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      expect(loaded(log, OPTIONAL)).toEqual([]);

      const openapi = await fetch(`${service.url}/openapi.json`);
      expect(openapi.status).toBe(200);
      expect(Object.keys(((await openapi.json()) as { paths: object }).paths)).toContain('/measurements');
      expect(loaded(log, OPTIONAL)).toEqual(['@fastify/swagger']);

      const docs = await fetch(`${service.url}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger');
      expect(loaded(log, OPTIONAL)).toEqual(['@fastify/swagger', '@fastify/swagger-ui']);

      const form = new FormData();
      form.append('username', 'nobody');
      form.append('password', 'not a password');
      expect((await fetch(`${service.url}/token`, { method: 'POST', body: form })).status).toBe(401);
      expect(loaded(log, OPTIONAL)).toEqual(['@fastify/swagger', '@fastify/swagger-ui', '@fastify/busboy', '@node-rs/argon2']);

      const created = await fetch(`${service.url}/users/new/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'lazy', password: 'long enough' }),
      });
      expect(created.status).toBe(200);
      expect(loaded(log, OPTIONAL)).toEqual(['@fastify/swagger', '@fastify/swagger-ui', '@fastify/busboy', '@node-rs/argon2', 'jose']);
    } finally {
      await service.stop();
    }
  });

  it('load when configured: the MQTT client with MQTT_URL, the PostgreSQL driver for a postgres:// store', async () => {
    const database = await scratchDatabase('postgres');
    const log = join(root, 'postgres.log');
    const service = await spawnService(
      {
        DATABASE_URL: database.url,
        SENSORHUB_MODULE_LOG: log,
        MQTT_URL: 'mqtt://127.0.0.1:1883',
        MQTT_TOPIC_PREFIX: `lazy-${process.pid}`,
      },
      60_000,
      MODULE_LOG,
    );
    try {
      expect(loaded(log, OPTIONAL)).toEqual(['pg', 'pg-cursor', 'mqtt']);
    } finally {
      await service.stop();
      await database.drop();
    }
  });
});
