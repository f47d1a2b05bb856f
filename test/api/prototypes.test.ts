import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

describe.each(storeKinds())('prototypes (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
  });
  afterAll(() => service?.close());

  it('lists the default prototype created on first start', async () => {
    const res = await service.get('/prototypes');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ prototype_id: 0, prototype_name: 'default_prototype', paused_until: null }]);
  });

  it('creates a prototype with 200 and reads it back', async () => {
    const res = await service.post('/prototypes', { prototype_id: 7, prototype_name: 'Serre Nord 🌱', extra: 'ignored' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ prototype_id: 7, prototype_name: 'Serre Nord 🌱', paused_until: null });
    expect((await service.get('/prototypes/7')).body).toEqual({ prototype_id: 7, prototype_name: 'Serre Nord 🌱', paused_until: null });
    expect((await service.get('/prototypes/7/')).status).toBe(200);
  });

  it('renames a prototype with PATCH; 404 for an unknown one, 422 for a bad name and nothing written', async () => {
    await service.post('/prototypes', { prototype_id: 70, prototype_name: 'before' });
    const renamed = await service.patch('/prototypes/70', { prototype_name: 'Tank Süd 🌿' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ prototype_id: 70, prototype_name: 'Tank Süd 🌿', paused_until: null });
    expect((await service.get('/prototypes/70')).body.prototype_name).toBe('Tank Süd 🌿');
    const missing = await service.patch('/prototypes/404', { prototype_name: 'x' });
    expect(missing.status).toBe(404);
    expect(await service.store.prototypes.exists(404)).toBe(false);
    for (const body of [{ prototype_name: '' }, { prototype_name: 'x'.repeat(201) }, {}]) {
      const bad = await service.patch('/prototypes/70', body);
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc[0]).toBe('body');
    }
    expect((await service.get('/prototypes/70')).body.prototype_name).toBe('Tank Süd 🌿');
  });

  it('accepts a numeric string id', async () => {
    const res = await service.post('/prototypes/', { prototype_id: '8', prototype_name: 'tank' });
    expect(res.status).toBe(200);
    expect(res.body.prototype_id).toBe(8);
  });

  it('lists prototypes by id', async () => {
    await service.post('/prototypes', { prototype_id: 3, prototype_name: 'three' });
    const ids = (await service.get('/prototypes')).body.map((p: { prototype_id: number }) => p.prototype_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toContain(3);
  });

  it('answers 409 for an existing id and keeps the original', async () => {
    await service.post('/prototypes', { prototype_id: 20, prototype_name: 'first' });
    const res = await service.post('/prototypes', { prototype_id: 20, prototype_name: 'second' });
    expect(res.status).toBe(409);
    expect(typeof res.body.detail).toBe('string');
    expect((await service.get('/prototypes/20')).body.prototype_name).toBe('first');
  });

  it.each([
    ['a negative id', { prototype_id: -1, prototype_name: 'x' }, ['body', 'prototype_id']],
    ['an id over 2^31-1', { prototype_id: 2 ** 31, prototype_name: 'x' }, ['body', 'prototype_id']],
    ['a fractional id', { prototype_id: 1.5, prototype_name: 'x' }, ['body', 'prototype_id']],
    ['a non-numeric id', { prototype_id: 'abc', prototype_name: 'x' }, ['body', 'prototype_id']],
    ['a missing name', { prototype_id: 30 }, ['body', 'prototype_name']],
    ['an empty name', { prototype_id: 30, prototype_name: '' }, ['body', 'prototype_name']],
    ['a name over 200 characters', { prototype_id: 30, prototype_name: 'x'.repeat(201) }, ['body', 'prototype_name']],
    ['a number as name', { prototype_id: 30, prototype_name: 5 }, ['body', 'prototype_name']],
    ['a null id', { prototype_id: null, prototype_name: 'x' }, ['body', 'prototype_id']],
  ])('rejects %s with 422 and writes nothing', async (_name, body, loc) => {
    const before = (await service.get('/prototypes')).body;
    const res = await service.post('/prototypes', body);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc })]));
    expect(typeof res.body.detail[0].msg).toBe('string');
    expect(typeof res.body.detail[0].type).toBe('string');
    expect((await service.get('/prototypes')).body).toEqual(before);
  });

  it('lists every problem of a body at once', async () => {
    const res = await service.post('/prototypes', { prototype_id: -5 });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.prototype_id', 'body.prototype_name']));
  });

  it('answers 404 for a missing prototype and 422 for a non-integer path id', async () => {
    expect((await service.get('/prototypes/999')).status).toBe(404);
    const res = await service.get('/prototypes/abc');
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['path', 'prototype_id']);
    expect((await service.get('/prototypes/-1')).status).toBe(422);
    expect((await service.get('/prototypes/2147483648')).status).toBe(422);
    expect((await service.get('/prototypes/2147483647')).status).toBe(404);
  });
});
