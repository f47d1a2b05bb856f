/**
 * The import rules of docs/architecture.md, checked on the source: every import points down the
 * layers, capabilities depend on one another without a circle, no module is part of a circle, and
 * nothing outside store/ reaches a database driver, the query builder or the store's insides.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/** Bottom first: a folder may import its own layer's folders only where said, and any lower layer. */
const LAYERS: string[][] = [
  ['domain'],
  ['store'],
  ['core', 'config'],
  ['http'],
  // Capabilities: may import each other's modules, as long as no circle forms between them.
  [
    'auth',
    'prototypes',
    'sensors',
    'actuators',
    'doses',
    'claims',
    'measurements',
    'history',
    'alerts',
    'events',
    'mqtt',
    'users',
    'picture',
    'timelapse',
    'dashboard',
    'ops',
    'safety',
    'records',
    'decisions',
    'backup',
    'simulator',
    'notifications',
    'aims',
  ],
  ['.', 'cli'],
];
const CAPABILITIES = new Set(LAYERS[4]);
const DRIVERS = ['kysely', 'pg', 'pg-cursor', 'better-sqlite3'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

interface Import {
  from: string;
  /** A file under src/ (relative to it), or a package name. */
  to: string;
  local: boolean;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(SRC, file);
  return [...text.matchAll(IMPORT)].map((match) => {
    const spec = match[1] ?? match[2];
    if (!spec.startsWith('.'))
      return { from, to: spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0], local: false };
    const to = normalize(join(dirname(from), spec)).replace(/\.js$/, '.ts');
    return { from, to, local: true };
  });
}

const folderOf = (path: string) => (path.includes('/') ? path.split('/')[0] : '.');
const layerOf = (folder: string) => LAYERS.findIndex((layer) => layer.includes(folder));

const files = sourceFiles(SRC);
const imports = files.flatMap(importsOf);

describe('the source layout', () => {
  it('puts every folder of src/ in a layer', () => {
    const unplaced = [...new Set(files.map((file) => folderOf(relative(SRC, file))))].filter((folder) => layerOf(folder) < 0);
    expect(unplaced).toEqual([]);
  });

  it('imports only from its own layer or the ones below', () => {
    const upward = imports.filter((i) => i.local && layerOf(folderOf(i.to)) > layerOf(folderOf(i.from))).map((i) => `${i.from} -> ${i.to}`);
    expect(upward).toEqual([]);
  });

  it('keeps the layers below the capabilities free of imports between their own folders', () => {
    const sideways = imports
      .filter((i) => i.local && folderOf(i.to) !== folderOf(i.from) && layerOf(folderOf(i.to)) === layerOf(folderOf(i.from)))
      .filter((i) => layerOf(folderOf(i.from)) < 4)
      .map((i) => `${i.from} -> ${i.to}`);
    expect(sideways).toEqual([]);
  });

  it('has no circle between capabilities', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) {
      const [a, b] = [folderOf(i.from), folderOf(i.to)];
      if (i.local && a !== b && CAPABILITIES.has(a) && CAPABILITIES.has(b)) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
    expect(circles(edges)).toEqual([]);
  });

  it('has no circle between modules', () => {
    const edges = new Map<string, Set<string>>();
    for (const i of imports) if (i.local) edges.set(i.from, (edges.get(i.from) ?? new Set()).add(i.to));
    expect(circles(edges)).toEqual([]);
  });

  it('leaves SQL, the drivers and the store insides to store/', () => {
    const leaks = imports
      .filter((i) => !i.from.startsWith('store/'))
      .filter((i) => (i.local ? i.to.startsWith('store/') && i.to !== 'store/index.ts' : DRIVERS.includes(i.to)))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(leaks).toEqual([]);
  });
});

/** Each circle once, as the path that closes it. */
function circles(edges: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}
