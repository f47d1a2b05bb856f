import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CameraUnavailable } from '../../src/picture/errors.js';
import { FileGate } from '../../src/picture/file-gate.js';
import { NewestInFolder } from '../../src/picture/folder.js';
import { pictureSource } from '../../src/picture/sources.js';
import { JPEG, PNG, WEBP } from '../helpers/images.js';

/** A promise and the functions that settle it, for work that returns only when the test says so. */
function pending<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('FileGate', () => {
  it('runs one capture at a time and never starts one while an earlier one has not returned', async () => {
    const gate = new FileGate();
    const hung = pending<string>();
    let started = 0;
    const first = gate.run(
      () => {
        started++;
        return hung.promise;
      },
      50,
      'a hung mount',
    );
    await expect(first).rejects.toThrow(/not read within 50 ms/);
    expect(gate.stuck()).toBe(true);

    // While the first has not returned, a new capture fails at its own limit and never starts.
    await expect(
      gate.run(
        async () => {
          started++;
          return 'second';
        },
        50,
        'the same mount',
      ),
    ).rejects.toThrow(/an earlier file read has not returned/);
    expect(started).toBe(1);

    hung.resolve('late');
    await expect.poll(() => gate.stuck()).toBe(false);
    await expect(gate.run(async () => 'third', 50, 'the mount, back')).resolves.toBe('third');
  });

  it('lets a capture that finds the gate busy wait for it within its limit', async () => {
    const gate = new FileGate();
    const slow = pending<string>();
    const first = gate.run(() => slow.promise, 5000, 'first');
    const order: string[] = [];
    const second = gate.run(
      async () => {
        order.push('second started');
        return 'second';
      },
      5000,
      'second',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('first done');
    slow.resolve('first');
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
    expect(order).toEqual(['first done', 'second started']);
  });
});

describe('file sources', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sensorhub-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, bytes: Buffer | string, ageSeconds: number) => {
    const t = Date.now() / 1000 - ageSeconds;
    writeFileSync(join(dir, name), bytes);
    utimesSync(join(dir, name), t, t);
  };

  it('examines a large folder once, then only what changed', async () => {
    const many = 3000;
    for (let i = 0; i < many; i++) write(`frame-${String(i).padStart(5, '0')}.jpg`, JPEG, 1000 - i / 10);
    write('frame-newest.png', PNG, 100);
    const folder = new NewestInFolder(dir);
    try {
      expect(await folder.capture()).toEqual({ bytes: PNG, type: 'image/png' });
      const afterFirst = folder.examined;
      expect(afterFirst).toBeGreaterThanOrEqual(many);

      // Nothing changed: the listing is not read again.
      expect(await folder.capture()).toEqual({ bytes: PNG, type: 'image/png' });
      expect(folder.examined - afterFirst).toBeLessThan(10);

      // A new file is picked up by looking at it alone.
      const beforeNew = folder.examined;
      write('later.webp', WEBP, 10);
      expect(await folder.capture()).toEqual({ bytes: WEBP, type: 'image/webp' });
      expect(folder.examined - beforeNew).toBeLessThan(10);

      // An older file touched in place (the folder itself unchanged) is seen through the watch.
      const now = Date.now() / 1000 + 60;
      utimesSync(join(dir, 'frame-00000.jpg'), now, now);
      await expect.poll(() => folder.capture(), { timeout: 5000 }).toEqual({ bytes: JPEG, type: 'image/jpeg' });
      expect(folder.examined - beforeNew).toBeLessThan(20);
    } finally {
      folder.close();
    }
  });

  it('follows a symlink that stays inside the folder, never one that leaves it', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'sensorhub-outside-'));
    try {
      write('old.png', PNG, 300);
      writeFileSync(join(outside, 'secret.jpg'), JPEG);
      symlinkSync(join(outside, 'secret.jpg'), join(dir, 'escape.jpg'));
      symlinkSync('../../', join(dir, 'up'));
      const folder = new NewestInFolder(dir);
      try {
        expect(await folder.capture()).toEqual({ bytes: PNG, type: 'image/png' });
        mkdirSync(join(dir, 'frames'));
        writeFileSync(join(dir, 'frames', 'f1.webp'), WEBP);
        symlinkSync(join('frames', 'f1.webp'), join(dir, 'latest.webp'));
        expect(await folder.capture()).toEqual({ bytes: WEBP, type: 'image/webp' });
      } finally {
        folder.close();
      }
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('skips a newest file that is only half written, and serves it once complete', async () => {
    write('complete.png', PNG, 60);
    write('writing.jpg', JPEG.subarray(0, JPEG.length - 30), 1);
    const folder = new NewestInFolder(dir);
    try {
      expect(await folder.capture()).toEqual({ bytes: PNG, type: 'image/png' });
      write('writing.jpg', JPEG, 0);
      await expect.poll(() => folder.capture(), { timeout: 5000 }).toEqual({ bytes: JPEG, type: 'image/jpeg' });
    } finally {
      folder.close();
    }
  });

  it('tells its state: unknown before the first capture, then ok or failing by the last', async () => {
    write('a.jpg', JPEG, 10);
    const source = pictureSource(`file:${join(dir, 'a.jpg')}`, 2000);
    try {
      expect(source.state()).toBe('unknown');
      expect((await source()).bytes).toEqual(JPEG);
      expect(source.state()).toBe('ok');
      write('a.jpg', JPEG.subarray(0, 5), 0);
      await expect(source()).rejects.toBeInstanceOf(CameraUnavailable);
      expect(source.state()).toBe('failing');
    } finally {
      source.close();
    }
  });
});
