import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskFullDetail, registerErrorHandling } from '../../src/http/errors.js';
import { isDiskFull, isMissingReference, isStoreUnavailable, storeDiskOf } from '../../src/store/errors.js';

/** An error as the drivers raise them: a message and a code (SQLite's name, PostgreSQL's SQLSTATE, errno's name). */
const failure = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`failed with ${code}`), { code, ...extra });

describe('isDiskFull', () => {
  it('recognises SQLite, PostgreSQL and file-system disk-full errors', () => {
    expect(isDiskFull(failure('SQLITE_FULL'))).toBe(true);
    expect(isDiskFull(failure('53100'))).toBe(true);
    expect(isDiskFull(failure('ENOSPC'))).toBe(true);
    expect(isDiskFull(failure('EDQUOT'))).toBe(true);
  });

  it('leaves out other errors: out of memory, I/O errors that say nothing of space, constraint failures', () => {
    for (const code of [
      '53200',
      '53300',
      'SQLITE_IOERR',
      'SQLITE_IOERR_WRITE',
      'SQLITE_BUSY',
      'SQLITE_CONSTRAINT_FOREIGNKEY',
      '23503',
      'EIO',
    ]) {
      expect(isDiskFull(failure(code)), code).toBe(false);
    }
    expect(isDiskFull(new Error('database or disk is full'))).toBe(false);
    expect(isDiskFull(undefined)).toBe(false);
    expect(isDiskFull('SQLITE_FULL')).toBe(false);
  });

  it('is neither an unavailable store (it is not cured by waiting) nor a missing reference', () => {
    for (const code of ['SQLITE_FULL', '53100', 'ENOSPC']) {
      expect(isStoreUnavailable(failure(code))).toBe(false);
      expect(isMissingReference(failure(code))).toBe(false);
    }
  });
});

describe('the disk named in the answer', () => {
  it("is the SQLite file's, or the PostgreSQL server's without its URL", () => {
    expect(storeDiskOf('sqlite:/var/lib/sensorhub/store.db')).toBe('the disk holding /var/lib/sensorhub/store.db');
    expect(storeDiskOf('sqlite:///var/lib/sensorhub/store.db')).toBe('the disk holding /var/lib/sensorhub/store.db');
    const postgres = storeDiskOf('postgres://sensorhub:secret@db.example:5432/sensorhub');
    expect(postgres).toMatch(/PostgreSQL server's disk/);
    expect(postgres).not.toMatch(/secret|db\.example/);
  });

  it("names the file's own path for a file written beside the store, the store's disk otherwise", () => {
    const store = 'the disk holding /data/store.db';
    expect(diskFullDetail(failure('SQLITE_FULL'), store)).toBe(
      'Cannot write: disk full. Free space on the disk holding /data/store.db; reads still work, and writes succeed again once there is space.',
    );
    expect(diskFullDetail(failure('ENOSPC', { path: '/data/timelapses/a/metadata.json' }), store)).toMatch(
      /disk full\. Free space on the disk holding \/data\/timelapses\/a\/metadata\.json;/,
    );
  });
});

describe('a disk-full error answered over HTTP', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerErrorHandling(app, isStoreUnavailable, isMissingReference, {
      is: isDiskFull,
      storeDisk: storeDiskOf('postgres://postgres@127.0.0.1:5432/x'),
    });
    // A route that fails as the store would: the code is the one the client's request met.
    app.get('/fail/:code', async (request) => {
      throw failure((request.params as { code: string }).code);
    });
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  const get = async (code: string) => {
    const res = await fetch(`${url}/fail/${code}`);
    return { status: res.status, body: (await res.json()) as { detail: string } };
  };

  it("is a 507 naming the disk to free, for PostgreSQL's 53100 and SQLite's SQLITE_FULL", async () => {
    for (const code of ['53100', 'SQLITE_FULL']) {
      const { status, body } = await get(code);
      expect(status, code).toBe(507);
      expect(body.detail).toMatch(/disk full\. Free space on the PostgreSQL server's disk/);
    }
  });

  it('leaves the other store errors as they were: out of memory is a 500, too many connections a 503', async () => {
    expect((await get('53200')).status).toBe(500);
    expect((await get('53300')).status).toBe(503);
  });
});
