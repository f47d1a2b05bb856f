import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT, requestJson, run, spawnService } from '../helpers/process.js';

const entries = (output: string[]) =>
  output.flatMap((line) => {
    try {
      return [JSON.parse(line) as { level: number; msg: string; path?: string; mode?: string }];
    } catch {
      return [];
    }
  });

describe('start-up warnings', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'sensorhub-start-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('warns about a store readable by others and about open mode, and says how to make an administrator', async () => {
    const folder = join(root, 'shared');
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    const file = join(folder, 'sensorhub.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const service = await spawnService({ DATABASE_URL: `sqlite:${file}` });
    await service.stop();
    const warnings = entries(service.output).filter((e) => e.level === 40);
    expect(warnings.filter((e) => e.msg.startsWith('store file or folder is readable by other users'))).toEqual([
      expect.objectContaining({ path: folder, mode: '0755' }),
      expect.objectContaining({ path: file, mode: '0644' }),
      // SQLite gives its WAL and shared-memory files the database file's mode.
      expect.objectContaining({ path: `${file}-wal`, mode: '0644' }),
      expect.objectContaining({ path: `${file}-shm`, mode: '0644' }),
    ]);
    const open = warnings.find((e) => e.msg.startsWith('AUTH_MODE=open'));
    expect(open?.msg).toContain('replace all data');
    expect(open?.msg).toContain('npm run users -- add NAME --permissions read,modify,admin');
  });

  it('in enforced mode with users but no administrator, says to make one with the CLI', async () => {
    const file = join(root, 'private', 'sensorhub.db');
    const first = await spawnService({ DATABASE_URL: `sqlite:${file}` });
    const made = await fetch(`${first.url}/users/new/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ana', password: 'long enough' }),
    });
    expect(made.status).toBe(200);
    await first.stop();
    const enforced = await spawnService({ DATABASE_URL: `sqlite:${file}`, AUTH_MODE: 'enforced' });
    await enforced.stop();
    const logged = entries(enforced.output);
    expect(logged.find((e) => e.msg.startsWith('no administrator'))?.level).toBe(40);
    expect(logged.some((e) => e.msg.startsWith('store file or folder is readable'))).toBe(false);
  });

  it('with MQTT in enforced mode, stops at start unless MQTT_TRUST_BROKER=true, naming both settings', async () => {
    const file = join(root, 'mqtt', 'sensorhub.db');
    const env = {
      DATABASE_URL: `sqlite:${file}`,
      PORT: '0',
      HOST: '127.0.0.1',
      AUTH_MODE: 'enforced',
      MQTT_URL: 'mqtt://127.0.0.1:1',
      MQTT_TRUST_BROKER: '',
    };
    const refused = await run(process.execPath, [BUILT.server], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^sensorhub: configuration error: MQTT_TRUST_BROKER: .*AUTH_MODE=enforced/m);
    expect(refused.stderr).toContain('MQTT_TRUST_BROKER=true');
    expect(refused.stdout).not.toContain('sensorhub ready');

    // Once the operator vouches for the broker it starts (and keeps trying the broker meanwhile).
    const trusted = await spawnService({ ...env, MQTT_TRUST_BROKER: 'true' });
    expect((await requestJson(`${trusted.url}/healthz`)).body.mqtt).toBeDefined();
    expect(await trusted.stop()).toBe(0);
  });
});
