import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fsyncPath } from '../../src/store/index.js';

const folder = mkdtempSync(join(tmpdir(), 'sensorhub-fsync-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe('fsyncPath', () => {
  it('flushes a file and a folder, leaving no descriptor open', () => {
    const file = join(folder, 'written');
    writeFileSync(file, 'data');
    const before = openDescriptors();
    fsyncPath(file);
    fsyncPath(folder);
    expect(openDescriptors()).toBe(before);
  });

  it('throws for a path that does not exist, leaving no descriptor open', () => {
    const before = openDescriptors();
    expect(() => fsyncPath(join(folder, 'missing'))).toThrow(/ENOENT/);
    expect(openDescriptors()).toBe(before);
  });
});
