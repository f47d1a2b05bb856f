import { describe, expect, it } from 'vitest';
import { smallestFreeId, tankNameProblem } from '../src/domain/tanks';

describe('smallestFreeId', () => {
  it('is 0 for the first tank and fills the gaps before going past the largest', () => {
    expect(smallestFreeId([])).toBe(0);
    expect(smallestFreeId([{ prototype_id: 0 }])).toBe(1);
    expect(smallestFreeId([{ prototype_id: 0 }, { prototype_id: 7 }])).toBe(1);
    expect(smallestFreeId([{ prototype_id: 2 }, { prototype_id: 1 }, { prototype_id: 0 }])).toBe(3);
    expect(smallestFreeId([{ prototype_id: 1 }])).toBe(0);
  });
});

describe('tankNameProblem', () => {
  it('asks for a name and keeps to 200 characters', () => {
    expect(tankNameProblem('  ')).toBe('Give the tank a name.');
    expect(tankNameProblem('Greenhouse B')).toBeNull();
    expect(tankNameProblem('🌱'.repeat(200))).toBeNull();
    expect(tankNameProblem('a'.repeat(201))).toBe('At most 200 characters.');
  });
});
