import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CameraStandIn, probeVideo, startCamera } from '../helpers/camera.js';
import { inRealTime } from '../helpers/eventually.js';
import { spawnService } from '../helpers/process.js';
import { type ScratchDatabase, scratchDatabase } from '../helpers/stores.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const json = async (url: string, init?: RequestInit): Promise<any> => (await fetch(url, init)).json();
const start = (url: string, config: object) =>
  json(`${url}/timelapse/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(config) });

/** Both cases wait on frames taken in real time, so they run side by side, each in a folder of its own. */
describe.concurrent('timelapses across restarts of the service process', () => {
  let camera: CameraStandIn;
  let database: ScratchDatabase;
  const dirs: string[] = [];
  beforeAll(async () => {
    camera = await startCamera();
    database = await scratchDatabase('sqlite');
  });
  afterAll(async () => {
    await camera?.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sensorhub-timelapse-process-'));
    dirs.push(dir);
    return dir;
  };
  const env = (dir: string) => ({ DATABASE_URL: database.url, PICTURE_SOURCE: camera.url, PICTURE_CACHE_MS: '0', TIMELAPSE_DIR: dir });

  it(
    'SIGTERM stops the timer cleanly and leaves the timelapse running on disk; the next start takes it up',
    { timeout: 90_000 },
    async () => {
      const dir = folder();
      const first = await spawnService(env(dir));
      const { metadata } = await start(first.url, { frequency: 1, duration: 8, framerate: 5, name: 'across restarts' });
      await inRealTime(async () => ((await json(`${first.url}/timelapse/status`)).metadata.frames >= 2 ? true : undefined), 'two frames');
      expect(await first.stop('SIGTERM')).toBe(0);
      const left = JSON.parse(readFileSync(join(dir, metadata.id, 'metadata.json'), 'utf8'));
      expect(left).toMatchObject({ id: metadata.id, state: 'running' });
      // Slots pass while no process runs (a start can take less than a period).
      await sleep(2000);

      const second = await spawnService(env(dir));
      try {
        // The start of a process can take longer than the timelapse has left: it then resumes to
        // finish (its remaining slots failed), else to take frames; either way every slot is accounted for.
        const done = await inRealTime(async () => {
          const [one] = await json(`${second.url}/timelapse`);
          return one.ready ? one : undefined;
        }, 'the video');
        expect(done).toMatchObject({ id: metadata.id, start_date: metadata.start_date, end_date: metadata.end_date });
        expect(done.frames).toBeGreaterThanOrEqual(left.frames);
        expect(done.frames + done.failed_frames).toBe(8);
        expect(done.failed_frames).toBeGreaterThan(0);
        const video = Buffer.from(await (await fetch(`${second.url}/timelapse/${metadata.id}/download`)).arrayBuffer());
        writeFileSync(join(dir, 'v.mp4'), video);
        expect(probeVideo(join(dir, 'v.mp4'))).toMatchObject({ codec: 'h264', frameRate: '5/1', frames: done.frames });
      } finally {
        await second.stop();
      }
    },
  );

  it(
    'without ffmpeg on PATH: frames taken, a log line that says to install it, and the video made once it is there',
    { timeout: 90_000 },
    async () => {
      const dir = folder();
      const withoutFfmpeg = await spawnService({ ...env(dir), PATH: '/nonexistent' });
      let id: string;
      let metadata: { frames: number; failed_frames: number };
      try {
        ({ id } = (await start(withoutFfmpeg.url, { frequency: 1, duration: 2, framerate: 2 })).metadata);
        const refused = await inRealTime(async () => {
          const res = await fetch(`${withoutFfmpeg.url}/timelapse/${id}/download`);
          const body = (await res.json()) as { detail: string };
          return /running|being assembled/.test(body.detail) ? undefined : { status: res.status, body };
        }, 'the assembly to give up');
        expect(refused.status).toBe(409);
        expect(refused.body.detail).toMatch(/ffmpeg was not found .*apt install ffmpeg/);
        [metadata] = await json(`${withoutFfmpeg.url}/timelapse`);
        expect(metadata).toMatchObject({ id, ready: false });
        expect(metadata.frames).toBeGreaterThanOrEqual(1);
        expect(metadata.frames + metadata.failed_frames).toBe(2);
        const lines = withoutFfmpeg.output.filter((line) => line.includes('ffmpeg was not found'));
        expect(lines.some((line) => line.includes('"level":40') && line.includes('no video can be made'))).toBe(true);
        expect(lines.some((line) => line.includes('"level":50') && line.includes('timelapse video not made'))).toBe(true);
      } finally {
        expect(await withoutFfmpeg.stop()).toBe(0);
      }

      const withFfmpeg = await spawnService(env(dir));
      try {
        const done = await inRealTime(async () => {
          const found = ((await json(`${withFfmpeg.url}/timelapse`)) as { id: string; ready: boolean }[]).find((m) => m.id === id);
          return found?.ready ? found : undefined;
        }, 'the video');
        expect(done).toMatchObject({ frames: metadata.frames, ready: true });
      } finally {
        await withFfmpeg.stop();
      }
    },
  );
});
