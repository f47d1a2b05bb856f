import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the manual (README.md, BENCHMARKS.md, docs/*.md) leads somewhere: the
 * file exists, and a `#anchor` names a heading of it as GitHub makes anchors. Pure file reading.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces made hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The lines outside fenced code blocks (a `#` in a shell example is no heading). */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opening = /^\s*(```+|~~~+)/.exec(line);
    if (opening) {
      if (fence === null) fence = opening[1];
      else if (line.trim().startsWith(fence)) fence = null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

/** The anchors of a file's headings, `-1`, `-2`… added to repeated ones as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Relative link targets (`file.md`, `file.md#anchor`, `#anchor`), outside code. */
export function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const line of prose(markdown)) {
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      links.push(target);
    }
  }
  return links;
}

/** What is wrong with each broken link of one file, read from `read` (path → text or undefined). */
export function brokenLinks(file: string, read: (path: string) => string | undefined): string[] {
  const text = read(file);
  if (text === undefined) return [`${file}: missing`];
  const problems: string[] = [];
  for (const link of relativeLinks(text)) {
    const [path, anchor] = link.split('#', 2);
    const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
    const targetText = read(target);
    if (targetText === undefined) {
      problems.push(`${file}: ${link} → no file ${target}`);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && !anchors(targetText).has(anchor)) {
      problems.push(`${file}: ${link} → no heading #${anchor} in ${target}`);
    }
  }
  return problems;
}

function readFromDisk(path: string): string | undefined {
  const full = join(ROOT, path);
  if (!existsSync(full)) return undefined;
  return full.endsWith('.md') ? readFileSync(full, 'utf8') : '';
}

const manual = [
  'README.md',
  'BENCHMARKS.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => relative(ROOT, join(ROOT, 'docs', name))),
];

describe('links of the manual', () => {
  it.each(manual)('%s: every relative link names an existing file and heading', (file) => {
    expect(brokenLinks(file, readFromDisk)).toEqual([]);
  });

  it('the README leads to every page of docs/', () => {
    const linked = new Set(relativeLinks(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((link) => link.split('#')[0]));
    const pages = manual.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('the link check itself', () => {
  const files: Record<string, string> = {
    'a.md': '# Title\n\n## 2.2 `GET /measurements/{sensor_id}`\n\n## Notes\n\n## Notes\n\n```sh\n# not a heading\n[x](gone.md)\n```\n',
    'docs/b.md': [
      '[ok](../a.md#22-get-measurementssensor_id) [dup](../a.md#notes-1) [self](#local)',
      '[missing file](nowhere.md) [missing anchor](../a.md#not-a-heading) `[in code](gone.md)`',
      '[fenced](../a.md#not-a-heading-either) is outside code here; [web](https://example.com/x.md)',
      '## Local',
    ].join('\n'),
  };
  const read = (path: string) => files[path];

  it('slugs headings as GitHub does', () => {
    expect(slug('2.2 `GET /measurements/{sensor_id}`')).toBe('22-get-measurementssensor_id');
    expect(slug('Health, metrics and logs')).toBe('health-metrics-and-logs');
    expect(slug('7.1 Timelapse')).toBe('71-timelapse');
    expect(anchors(files['a.md'])).toEqual(new Set(['title', '22-get-measurementssensor_id', 'notes', 'notes-1']));
  });

  it('reports a missing file and a missing heading, and nothing for good, web or code links', () => {
    expect(brokenLinks('docs/b.md', read)).toEqual([
      'docs/b.md: nowhere.md → no file docs/nowhere.md',
      'docs/b.md: ../a.md#not-a-heading → no heading #not-a-heading in a.md',
      'docs/b.md: ../a.md#not-a-heading-either → no heading #not-a-heading-either in a.md',
    ]);
  });
});
