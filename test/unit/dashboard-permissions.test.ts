import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/auth/permissions.js';
import { PERMISSION_NAMES } from '../../web/src/domain/permissions.js';

// The dashboard writes the permission names out (web/src/domain/permissions.ts): it cannot load the
// service's module, which extends Fastify's types. Here the two lists are held equal.
describe("the dashboard's permissions", () => {
  it('are the service’s names with the service’s bits', () => {
    expect(Object.fromEntries(PERMISSION_NAMES.map((p) => [p.name, p.bit]))).toEqual(PERMISSIONS);
  });
});
