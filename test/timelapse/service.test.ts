import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Picture } from '../../src/picture/sources.js';
import { timelapseFolder } from '../../src/timelapse/folder.js';
import type { TimelapseRecord } from '../../src/timelapse/record.js';
import { MAX_TIMELAPSE_FRAMES } from '../../src/config/index.js';
import { systemTimers } from '../../src/core/timers.js';
import { type TimelapseService, timelapseService } from '../../src/timelapse/service.js';
import { probeVideo, realJpegs } from '../helpers/camera.js';
import { inRealTime } from '../helpers/eventually.js';
import { PNG } from '../helpers/images.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let jpegs: Buffer[];
beforeAll(() => {
  jpegs = realJpegs(4);
});

let dir: string;
let service: TimelapseService | undefined;
const logged: { level: string; msg: string }[] = [];
const log = {
  info: (_o: unknown, msg?: string) => void logged.push({ level: 'info', msg: msg ?? '' }),
  warn: (_o: unknown, msg?: string) => void logged.push({ level: 'warn', msg: msg ?? '' }),
  error: (_o: unknown, msg?: string) => void logged.push({ level: 'error', msg: msg ?? '' }),
} as never;

let captures = 0;
const camera = async (): Promise<Picture> => ({ bytes: jpegs[captures++ % jpegs.length], type: 'image/jpeg' });

function open(capture: () => Promise<Picture> = camera, ffmpegPath = 'ffmpeg') {
  service = timelapseService({
    dir,
    ffmpegPath,
    maxFrames: MAX_TIMELAPSE_FRAMES,
    maxBytes: 0,
    capture,
    now: Date.now,
    timers: systemTimers,
    log,
  });
  return service;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sensorhub-timelapses-'));
  logged.length = 0;
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const iso = (ms: number) => new Date(ms).toISOString();

/** A timelapse left on disk by an earlier run of the service. */
function leftBehind(fields: Partial<TimelapseRecord> & { startMs: number; framesOnDisk: number }): TimelapseRecord {
  const id = randomUUID();
  const { startMs, framesOnDisk, ...rest } = fields;
  const record: TimelapseRecord = {
    id,
    name: 'earlier',
    frames: framesOnDisk,
    failed_frames: 0,
    framerate: 5,
    frequency: 1,
    duration: 10,
    start_date: iso(startMs),
    latest_frame_date: framesOnDisk > 0 ? iso(startMs) : null,
    end_date: iso(startMs + (rest.duration ?? 10) * 1000),
    stopped_date: null,
    ready: false,
    state: 'running',
    image_type: framesOnDisk > 0 ? 'image/jpeg' : null,
    video_failure: null,
    ...rest,
  };
  mkdirSync(join(dir, id, 'frames'), { recursive: true });
  writeFileSync(join(dir, id, 'metadata.json'), JSON.stringify(record));
  for (let i = 0; i < framesOnDisk; i++)
    writeFileSync(join(dir, id, 'frames', `${String(i).padStart(6, '0')}.jpg`), jpegs[i % jpegs.length]);
  return record;
}

const onDisk = (id: string) => JSON.parse(readFileSync(join(dir, id, 'metadata.json'), 'utf8')) as TimelapseRecord;
const current = (id: string) => service!.list().find((r) => r.id === id)!;

describe('a timelapse service that starts again', () => {
  it('resumes the running timelapse until its end: frames counted from the files, passed slots as failed', async () => {
    const earlier = leftBehind({ startMs: Date.now() - 4500, duration: 7, framesOnDisk: 2, frames: 1 });
    // An interrupted frame write leaves a temporary file.
    writeFileSync(join(dir, earlier.id, 'frames', '000002.jpg.4f2a9c'), 'half');
    const timelapses = open();
    await timelapses.resume();
    expect(timelapses.status()).toMatchObject({ running: true, metadata: { id: earlier.id, frames: 2, failed_frames: 2 } });
    expect(readdirSync(join(dir, earlier.id, 'frames')).every((n) => /^\d{6}\.jpg$/.test(n))).toBe(true);

    await inRealTime(() => current(earlier.id).ready, 'the video');
    const done = current(earlier.id);
    // Slots 2 and 3 passed while it was down; 4, 5 and 6 were taken.
    expect(done).toMatchObject({ frames: 5, failed_frames: 2, state: 'finished', start_date: earlier.start_date });
    expect(probeVideo(join(dir, earlier.id, 'timelapse.mp4'))).toMatchObject({ frames: 5, frameRate: '5/1' });
    // Memory first, then the file: the metadata lands on disk right after.
    await inRealTime(() => onDisk(earlier.id).state === 'finished', 'the metadata on disk');
    expect(onDisk(earlier.id)).toMatchObject({ frames: 5, ready: true, state: 'finished' });
    expect(logged.some((l) => l.msg === 'timelapse resumed')).toBe(true);
  });

  it('makes the video of one that ended while it was down, counting the slots it missed', async () => {
    const earlier = leftBehind({ startMs: Date.now() - 60_000, duration: 5, framesOnDisk: 2 });
    const timelapses = open();
    await timelapses.resume();
    expect(timelapses.status().running).toBe(false);
    await inRealTime(() => current(earlier.id).ready, 'the video');
    expect(current(earlier.id)).toMatchObject({ frames: 2, failed_frames: 3 });
  });

  it('makes the video interrupted by the stop, and the one that waited for ffmpeg; not one that failed', async () => {
    const interrupted = leftBehind({ startMs: Date.now() - 60_000, framesOnDisk: 2, state: 'assembling' });
    const waited = leftBehind({
      startMs: Date.now() - 120_000,
      framesOnDisk: 3,
      state: 'finished',
      video_failure: { kind: 'missing', message: 'ffmpeg was not found' },
    });
    const failed = leftBehind({
      startMs: Date.now() - 180_000,
      framesOnDisk: 1,
      state: 'finished',
      video_failure: { kind: 'failed', message: 'ffmpeg exited with 1' },
    });
    const timelapses = open();
    await timelapses.resume();
    await inRealTime(() => current(interrupted.id).ready && current(waited.id).ready, 'both videos');
    expect(current(waited.id).video_failure).toBeNull();
    expect(current(failed.id)).toMatchObject({ ready: false, state: 'finished' });
    expect(existsSync(join(dir, failed.id, 'timelapse.mp4'))).toBe(false);
    expect(timelapses.list().map((r) => r.id)).toEqual([interrupted.id, waited.id, failed.id]);
  });

  it('leaves folders it cannot read alone, and says so', async () => {
    const good = leftBehind({ startMs: Date.now() - 60_000, framesOnDisk: 0, state: 'finished' });
    const damaged = randomUUID();
    mkdirSync(join(dir, damaged));
    writeFileSync(join(dir, damaged, 'metadata.json'), '{"id": "half');
    mkdirSync(join(dir, 'holiday-photos'));
    const timelapses = open();
    await timelapses.resume();
    expect(timelapses.list().map((r) => r.id)).toEqual([good.id]);
    expect(existsSync(join(dir, damaged, 'metadata.json'))).toBe(true);
    expect(logged.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'timelapse folder without readable metadata: left as it is',
    ]);
  });
});

describe('taking frames', () => {
  it('keeps the picture of a capture still under way at stop out of the timelapse', async () => {
    let release: ((p: Picture) => void) | undefined;
    const timelapses = open(() => new Promise<Picture>((resolve) => (release = resolve)));
    const { id } = await timelapses.start({ frequency: 1, duration: 60, framerate: 1 });
    await inRealTime(() => release !== undefined, 'the first capture to begin');
    await timelapses.stop();
    release!({ bytes: jpegs[0], type: 'image/jpeg' });
    await inRealTime(() => current(id).state === 'finished', 'the end');
    expect(current(id)).toMatchObject({ frames: 0, ready: false });
    expect(readdirSync(join(dir, id, 'frames'))).toEqual([]);
  });

  it('counts a frame of another image type than the first as failed', async () => {
    let n = 0;
    const timelapses = open(async () => (n++ === 1 ? { bytes: PNG, type: 'image/png' } : { bytes: jpegs[n % 4], type: 'image/jpeg' }));
    const { id } = await timelapses.start({ frequency: 1, duration: 3, framerate: 1 });
    await inRealTime(() => current(id).ready, 'the video');
    expect(current(id)).toMatchObject({ frames: 2, failed_frames: 1, image_type: 'image/jpeg' });
    expect(readdirSync(join(dir, id, 'frames')).sort()).toEqual(['000000.jpg', '000001.jpg']);
  });

  it('on close keeps the running timelapse running on disk, and takes no frame after', async () => {
    const timelapses = open();
    const { id } = await timelapses.start({ frequency: 1, duration: 60, framerate: 1 });
    await inRealTime(() => current(id).frames >= 1, 'a frame');
    await timelapses.close();
    const frames = readdirSync(join(dir, id, 'frames')).length;
    const taken = captures;
    await sleep(1200);
    expect(captures).toBe(taken);
    expect(readdirSync(join(dir, id, 'frames')).length).toBe(frames);
    expect(onDisk(id)).toMatchObject({ state: 'running', frames });
    service = undefined;
    // The folder API reads it back the same way.
    expect((await timelapseFolder(dir).readAll()).records.map((r) => r.id)).toEqual([id]);
  });
});
