import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSecret, tokenService } from '../../src/auth/tokens.js';
import { type CameraStandIn, probeVideo, startCamera } from '../helpers/camera.js';
import { inRealTime } from '../helpers/eventually.js';
import { startService, type TestService } from '../helpers/service.js';
import type { StoreKind } from '../../src/store/dialect.js';
import { type ScratchDatabase, scratchDatabase, storeKinds } from '../helpers/stores.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Metadata {
  id: string;
  name: string;
  frames: number;
  failed_frames: number;
  framerate: number;
  start_date: string;
  latest_frame_date: string | null;
  end_date: string;
  ready: boolean;
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** The bytes of every file below a folder. */
const bytesUnder = (folder: string): number =>
  readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);

/** For the cases that count no capture: those that do start a camera of their own. */
let camera: CameraStandIn;
beforeAll(async () => {
  camera = await startCamera();
});
afterAll(() => camera?.close());

/** One database per store kind for the file: timelapses do not depend on what is stored. */
const databases = new Map<string, Promise<ScratchDatabase>>();
const databaseOf = (kind: StoreKind) => {
  if (!databases.has(kind)) databases.set(kind, scratchDatabase(kind));
  return databases.get(kind)!;
};
afterAll(async () => {
  for (const database of databases.values()) await (await database).drop();
});

/**
 * Frames are taken in real time, a second apart at the least, so the cases of both stores run side
 * by side, each with a service, a folder and a camera of its own (the cases count the camera's
 * captures); the steps of one timelapse run in order within their group.
 */
describe.concurrent.each(storeKinds())('timelapses (%s)', (kind) => {
  async function withService(env: Record<string, string>, test: (s: TestService, dir: string, camera: CameraStandIn) => Promise<void>) {
    const ownCamera = await startCamera();
    const folder = mkdtempSync(join(tmpdir(), 'sensorhub-timelapse-test-'));
    const s = await startService(kind, {
      database: await databaseOf(kind),
      env: { PICTURE_SOURCE: ownCamera.url, PICTURE_CACHE_MS: '0', TIMELAPSE_DIR: folder, ...env },
    });
    try {
      await test(s, folder, ownCamera);
    } finally {
      await s.close();
      await ownCamera.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }

  const list = async (s: TestService) => (await s.get<Metadata[]>('/timelapse')).body;
  const readyOne = (s: TestService, id: string) =>
    inRealTime(async () => (await list(s)).find((m) => m.id === id && m.ready), `the video of ${id}`);
  const framesOnDisk = (folder: string, id: string) => readdirSync(join(folder, id, 'frames')).length;

  describe('a short timelapse', () => {
    let camera: CameraStandIn;
    let service: TestService;
    let dir: string;
    beforeAll(async () => {
      camera = await startCamera();
      dir = mkdtempSync(join(tmpdir(), 'sensorhub-timelapse-test-'));
      service = await startService(kind, {
        database: await databaseOf(kind),
        env: { PICTURE_SOURCE: camera.url, PICTURE_CACHE_MS: '0', TIMELAPSE_DIR: dir },
      });
    });
    afterAll(async () => {
      await service?.close();
      await camera?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    // Long enough that a loaded machine still sees it running after its first frame.
    const SECONDS = 10;
    let started: { running: boolean; metadata: Metadata; config: unknown };
    let servedBefore: number;

    it.sequential('starts: 200 with the status of the new timelapse', async () => {
      servedBefore = camera.served;
      const res = await service.post('/timelapse/start', { frequency: 1, duration: SECONDS, framerate: 4 });
      expect(res.status).toBe(200);
      started = res.body;
      const { metadata } = started;
      expect(started.running).toBe(true);
      expect(metadata.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(metadata).toMatchObject({ name: `Timelapse ${metadata.id.slice(0, 8)}`, framerate: 4, ready: false });
      expect(Date.parse(metadata.end_date) - Date.parse(metadata.start_date)).toBe(SECONDS * 1000);
      expect(metadata.start_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(started.config).toEqual({ frequency: 1, duration: SECONDS, framerate: 4, name: metadata.name });
    });

    it.sequential('shows the newest frame while it runs, and the same status at /status and /frame-info', async () => {
      const frame = await inRealTime(async () => {
        const res = await fetch(`${service.url}/timelapse/latest-frame`);
        return res.status === 200
          ? { type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), bytes: Buffer.from(await res.arrayBuffer()) }
          : undefined;
      }, 'a first frame');
      expect(frame.type).toBe('image/jpeg');
      expect(frame.cache).toBe('no-store');
      const frames = readdirSync(join(dir, started.metadata.id, 'frames')).sort();
      expect(frames.map((name) => readFileSync(join(dir, started.metadata.id, 'frames', name)).equals(frame.bytes))).toContain(true);
      const status = await service.get('/timelapse/status');
      const info = await service.get('/timelapse/frame-info');
      expect(status.status).toBe(200);
      expect(status.body.running).toBe(true);
      expect(info.body.metadata.id).toBe(started.metadata.id);
      // The metadata file is whole and readable while it runs.
      const onDisk = JSON.parse(readFileSync(join(dir, started.metadata.id, 'metadata.json'), 'utf8'));
      expect(onDisk).toMatchObject({ id: started.metadata.id, state: 'running' });
    });

    it.sequential('ends with a frame per period and an H.264 MP4 whose frame count and rate ffprobe confirms', async () => {
      const done = await readyOne(service, started.metadata.id);
      // A frame per period; a machine stalled for a whole period (a loaded CI) may miss one,
      // which then counts as failed (the scheduler's own tests pin the grid exactly).
      expect(done.frames + done.failed_frames).toBe(SECONDS);
      expect(done.frames).toBeGreaterThanOrEqual(SECONDS - 2);
      expect(camera.served - servedBefore).toBe(done.frames);
      expect(Date.parse(done.latest_frame_date!)).toBeGreaterThanOrEqual(Date.parse(done.start_date) + (SECONDS - 1) * 1000);
      expect(Date.parse(done.latest_frame_date!)).toBeLessThan(Date.parse(done.end_date));

      const res = await fetch(`${service.url}/timelapse/${done.id}/download`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename=timelapse_${done.id}.mp4`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
      const file = join(dir, 'downloaded.mp4');
      writeFileSync(file, bytes);
      expect(probeVideo(file)).toEqual({ codec: 'h264', pixelFormat: 'yuv420p', frameRate: '4/1', frames: done.frames });

      const status = (await service.get('/timelapse/status')).body;
      expect(status).toMatchObject({ running: false, metadata: { id: done.id, ready: true, frames: done.frames } });
    });

    it.sequential('answers range requests from the file', async () => {
      const whole = readFileSync(join(dir, started.metadata.id, 'timelapse.mp4'));
      const res = await fetch(`${service.url}/timelapse/${started.metadata.id}/download`, { headers: { range: 'bytes=100-199' } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`);
      expect(res.headers.get('content-length')).toBe('100');
      expect(Buffer.from(await res.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true);

      const past = await fetch(`${service.url}/timelapse/${started.metadata.id}/download`, {
        headers: { range: `bytes=${whole.length + 10}-` },
      });
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${whole.length}`);
      expect(await past.json()).toEqual({ detail: 'Range Not Satisfiable' });
    });

    it.sequential('keeps its files private: folders 0700, files 0600', () => {
      const folder = join(dir, started.metadata.id);
      expect(mode(dir)).toBe(0o700);
      expect(mode(folder)).toBe(0o700);
      expect(mode(join(folder, 'frames'))).toBe(0o700);
      expect(mode(join(folder, 'metadata.json'))).toBe(0o600);
      expect(mode(join(folder, 'timelapse.mp4'))).toBe(0o600);
      for (const frame of readdirSync(join(folder, 'frames'))) expect(mode(join(folder, 'frames', frame))).toBe(0o600);
      expect(readdirSync(folder).sort()).toEqual(['frames', 'metadata.json', 'timelapse.mp4']);
    });

    it.sequential('has no latest frame once nothing runs', async () => {
      const res = await service.get('/timelapse/latest-frame');
      expect(res.status).toBe(404);
      expect(res.body.detail).toMatch(/no timelapse is running/);
    });
  });

  it('stops mid-way: the video holds the frames taken so far, and no frame is taken after', async () => {
    await withService({}, async (s, folder, camera) => {
      const { id } = (await s.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 10, name: 'Basil' })).body.metadata;
      await inRealTime(async () => ((await s.get('/timelapse/status')).body.metadata.frames >= 2 ? true : undefined), 'two frames');
      const stopped = await s.post('/timelapse/stop');
      expect(stopped.status).toBe(200);
      expect(stopped.body).toMatchObject({ running: false, metadata: { id, name: 'Basil', ready: false } });
      const servedAtStop = camera.served;

      const done = await readyOne(s, id);
      expect(done.frames).toBeGreaterThanOrEqual(2);
      expect(framesOnDisk(folder, id)).toBe(done.frames);
      const download = Buffer.from(await (await fetch(`${s.url}/timelapse/${id}/download`)).arrayBuffer());
      writeFileSync(join(folder, 'v.mp4'), download);
      expect(probeVideo(join(folder, 'v.mp4'))).toMatchObject({ frameRate: '10/1', frames: done.frames });

      await sleep(1500);
      expect(camera.served).toBe(servedAtStop);
      expect(framesOnDisk(folder, id)).toBe(done.frames);
      // Stopping again changes nothing.
      const again = await s.post('/timelapse/stop');
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ running: false, metadata: { id, frames: done.frames, ready: true } });
    });
  });

  it('deletes a running timelapse: stopped first, its files gone, no frame after', async () => {
    await withService({}, async (s, folder, camera) => {
      const { id } = (await s.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 10 })).body.metadata;
      await inRealTime(async () => ((await s.get('/timelapse/status')).body.metadata.frames >= 1 ? true : undefined), 'a frame');
      const res = await s.request('DELETE', `/timelapse/${id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(existsSync(join(folder, id))).toBe(false);
      expect(await list(s)).toEqual([]);
      expect((await s.get('/timelapse/status')).body).toEqual({ running: false, metadata: null, config: null });
      const served = camera.served;
      await sleep(1500);
      expect(camera.served).toBe(served);
      expect(existsSync(join(folder, id))).toBe(false);
      expect((await s.request('DELETE', `/timelapse/${id}`)).status).toBe(404);
      expect((await s.get(`/timelapse/${id}/download`)).status).toBe(404);
      // A new one can start at once.
      expect((await s.post('/timelapse/start', { frequency: 1, duration: 1, framerate: 1 })).status).toBe(200);
    });
  });

  it('skips and counts the frames of a camera that fails half the time', async () => {
    await withService({}, async (s, folder, camera) => {
      camera.mode = 'flaky';
      const before = { served: camera.served, failed: camera.failed };
      try {
        const { id } = (await s.post('/timelapse/start', { frequency: 1, duration: 4, framerate: 2 })).body.metadata;
        const done = await readyOne(s, id);
        const served = camera.served - before.served;
        const failed = camera.failed - before.failed;
        expect(failed).toBeGreaterThanOrEqual(1);
        expect(done.frames).toBe(served);
        expect(done.frames + done.failed_frames).toBe(4);
        expect(done.failed_frames).toBeGreaterThanOrEqual(failed);
        expect(framesOnDisk(folder, id)).toBe(done.frames);
        writeFileSync(join(folder, 'v.mp4'), Buffer.from(await (await fetch(`${s.url}/timelapse/${id}/download`)).arrayBuffer()));
        expect(probeVideo(join(folder, 'v.mp4')).frames).toBe(done.frames);
      } finally {
        camera.mode = 'ok';
      }
    });
  });

  it('without ffmpeg: frames are still taken, ready stays false and the download says why', async () => {
    await withService({ FFMPEG_PATH: '/nonexistent/bin/ffmpeg' }, async (s, folder) => {
      const { id } = (await s.post('/timelapse/start', { frequency: 1, duration: 2, framerate: 2 })).body.metadata;
      const running = await s.get(`/timelapse/${id}/download`);
      expect(running.status).toBe(409);
      expect(running.body.detail).toMatch(/still running/);
      const refused = await inRealTime(async () => {
        const res = await s.get(`/timelapse/${id}/download`);
        return /running|being assembled/.test(res.body.detail) ? undefined : res;
      }, 'the assembly to give up');
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(
        /ffmpeg was not found \(FFMPEG_PATH=\/nonexistent\/bin\/ffmpeg\): install it \(apt install ffmpeg\)/,
      );
      const [metadata] = await list(s);
      expect(metadata).toMatchObject({ id, ready: false });
      expect(metadata.frames).toBeGreaterThanOrEqual(1);
      expect(metadata.frames + metadata.failed_frames).toBe(2);
      expect(framesOnDisk(folder, id)).toBe(metadata.frames);
      expect(existsSync(join(folder, id, 'timelapse.mp4'))).toBe(false);
    });
  });

  it('shares captures with GET /picture: a dashboard showing the picture makes no capture of its own', async () => {
    await withService({ PICTURE_CACHE_MS: '60000' }, async (s, folder, camera) => {
      const servedBefore = camera.served;
      const { id } = (await s.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 1 })).body.metadata;
      await inRealTime(async () => ((await s.get('/timelapse/status')).body.metadata.frames >= 1 ? true : undefined), 'a frame');
      const pictures = await Promise.all(
        Array.from({ length: 5 }, async () => Buffer.from(await (await fetch(`${s.url}/picture`)).arrayBuffer())),
      );
      const frame = readFileSync(join(folder, id, 'frames', '000000.jpg'));
      for (const picture of pictures) expect(picture.equals(frame)).toBe(true);
      expect(camera.served - servedBefore).toBe(1);
      expect((await s.request('DELETE', `/timelapse/${id}`)).status).toBe(204);
    });
  });

  it('resumes a running timelapse when the service starts again, until its end date', async () => {
    const database = await databaseOf(kind);
    const folder = mkdtempSync(join(tmpdir(), 'sensorhub-timelapse-test-'));
    const env = { PICTURE_SOURCE: camera.url, PICTURE_CACHE_MS: '0', TIMELAPSE_DIR: folder };
    try {
      const first = await startService(kind, { database, env });
      // Fifteen seconds: a loaded machine may take several to restart the service, and it must
      // come back while the timelapse still runs.
      const { metadata } = (await first.post('/timelapse/start', { frequency: 3, duration: 15, framerate: 3 })).body;
      await inRealTime(async () => ((await first.get('/timelapse/status')).body.metadata.frames >= 1 ? true : undefined), 'a frame');
      await first.close();
      const before = JSON.parse(readFileSync(join(folder, metadata.id, 'metadata.json'), 'utf8'));
      expect(before.state).toBe('running');

      const second = await startService(kind, { database, env });
      try {
        expect((await second.get('/timelapse/status')).body).toMatchObject({
          running: true,
          metadata: { id: metadata.id, start_date: metadata.start_date },
        });
        const done = await readyOne(second, metadata.id);
        expect(done.frames).toBeGreaterThan(before.frames);
        expect(done.frames + done.failed_frames).toBe(5);
        writeFileSync(
          join(folder, 'v.mp4'),
          Buffer.from(await (await fetch(`${second.url}/timelapse/${metadata.id}/download`)).arrayBuffer()),
        );
        expect(probeVideo(join(folder, 'v.mp4')).frames).toBe(done.frames);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('TIMELAPSE_MAX_BYTES bounds the disk all timelapses use', () => {
    const usedIn = (detail: string) => Number(/\((\d+) bytes\)/.exec(detail)?.[1]);

    it('refuses a new one past it with 507 and starts nothing, measured again at start; a delete makes room', async () => {
      const database = await databaseOf(kind);
      const folder = mkdtempSync(join(tmpdir(), 'sensorhub-timelapse-test-'));
      // A camera of its own: the case counts its captures.
      const ownCamera = await startCamera();
      const maxBytes = 12_000;
      const env = { PICTURE_SOURCE: ownCamera.url, PICTURE_CACHE_MS: '0', TIMELAPSE_DIR: folder, TIMELAPSE_MAX_BYTES: String(maxBytes) };
      try {
        const first = await startService(kind, { database, env });
        const ids: string[] = [];
        let refused: { status: number; body: { detail: string } };
        try {
          // Start, take a frame, stop, wait for the video: until the timelapses fill the bound.
          for (;;) {
            const res = await first.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 1 });
            if (res.status !== 200) {
              refused = res;
              break;
            }
            const { id } = res.body.metadata;
            ids.push(id);
            expect(ids.length).toBeLessThan(20);
            await inRealTime(async () => ((await first.get('/timelapse/status')).body.metadata.frames >= 1 ? true : undefined), 'a frame');
            expect((await first.post('/timelapse/stop')).status).toBe(200);
            await readyOne(first, id);
          }
          expect(ids.length).toBeGreaterThanOrEqual(1);
          expect(refused.status).toBe(507);
          expect(refused.body.detail).toMatch(/TIMELAPSE_MAX_BYTES/);
          expect(refused.body.detail).toMatch(/delet/i);
          expect(usedIn(refused.body.detail)).toBeGreaterThanOrEqual(maxBytes);
          // Nothing was started: no folder, no entry, nothing running, no capture.
          const served = ownCamera.served;
          const again = await first.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 1 });
          expect(again.status).toBe(507);
          expect(readdirSync(folder).sort()).toEqual([...ids].sort());
          expect((await list(first)).map((m) => m.id).sort()).toEqual([...ids].sort());
          expect((await first.get('/timelapse/status')).body.running).toBe(false);
          expect(ownCamera.served).toBe(served);
        } finally {
          await first.close();
        }

        // A service started on the same folder measures it: the bytes it reports are those on disk.
        const second = await startService(kind, { database, env });
        try {
          const res = await second.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 1 });
          expect(res.status).toBe(507);
          expect(usedIn(res.body.detail)).toBe(bytesUnder(folder));
          // Deleting the oldest makes room, and the next start works.
          expect((await second.request('DELETE', `/timelapse/${ids[0]}`)).status).toBe(204);
          expect(existsSync(join(folder, ids[0]))).toBe(false);
          const started = await second.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 1 });
          expect(started.status).toBe(200);
          expect(existsSync(join(folder, started.body.metadata.id))).toBe(true);
          expect((await second.request('DELETE', `/timelapse/${started.body.metadata.id}`)).status).toBe(204);
        } finally {
          await second.close();
        }
      } finally {
        await ownCamera.close();
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('stops a running timelapse at the frame that reaches it, and makes its video of the frames taken', async () => {
      const maxBytes = 8_000;
      await withService({ TIMELAPSE_MAX_BYTES: String(maxBytes) }, async (s, folder) => {
        const { id } = (await s.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 2 })).body.metadata;
        const status = await inRealTime(async () => {
          const body = (await s.get('/timelapse/status')).body;
          return body.running ? undefined : body;
        }, 'the timelapse to stop at the bound');
        expect(status.metadata).toMatchObject({ id });
        const done = await readyOne(s, id);
        expect(framesOnDisk(folder, id)).toBe(done.frames);
        expect(done.frames).toBeGreaterThanOrEqual(2);
        expect(done.frames + done.failed_frames).toBeLessThan(600);
        // It stopped at the first frame that reached the bound: without that frame it was below.
        const frames = readdirSync(join(folder, id, 'frames'))
          .sort()
          .map((name) => statSync(join(folder, id, 'frames', name)).size);
        const framesBytes = frames.reduce((a, b) => a + b, 0);
        expect(framesBytes + statSync(join(folder, id, 'metadata.json')).size).toBeGreaterThanOrEqual(maxBytes);
        expect(framesBytes - frames.at(-1)!).toBeLessThan(maxBytes);
        writeFileSync(join(folder, 'v.mp4'), Buffer.from(await (await fetch(`${s.url}/timelapse/${id}/download`)).arrayBuffer()));
        expect(probeVideo(join(folder, 'v.mp4')).frames).toBe(done.frames);
        // And no new one starts until room is made.
        const refused = await s.post('/timelapse/start', { frequency: 1, duration: 600, framerate: 2 });
        expect(refused.status).toBe(507);
        expect(readdirSync(folder).filter((name) => name !== 'v.mp4')).toEqual([id]);
      });
    });
  });

  describe('refuses a bad configuration with 422 and writes nothing', () => {
    let service: TestService;
    let dir: string;
    beforeAll(async () => {
      dir = join(tmpdir(), `sensorhub-timelapse-never-${process.pid}-${kind}`);
      service = await startService(kind, {
        database: await databaseOf(kind),
        env: { PICTURE_SOURCE: camera.url, TIMELAPSE_DIR: dir, TIMELAPSE_MAX_FRAMES: '10' },
      });
    });
    afterAll(async () => {
      await service?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const good = { frequency: 1, duration: 5, framerate: 10 };
    it.sequential.each([
      ['frequency 0', { ...good, frequency: 0 }, ['body', 'frequency'], 'greater_than'],
      ['negative frequency', { ...good, frequency: -5 }, ['body', 'frequency'], 'greater_than'],
      ['fractional frequency', { ...good, frequency: 1.5 }, ['body', 'frequency'], 'int_parsing'],
      ['text frequency', { ...good, frequency: 'often' }, ['body', 'frequency'], 'int_parsing'],
      ['null frequency', { ...good, frequency: null }, ['body', 'frequency'], 'int_parsing'],
      ['missing frequency', { duration: 5, framerate: 10 }, ['body', 'frequency'], 'missing'],
      ['duration 0', { ...good, duration: 0 }, ['body', 'duration'], 'greater_than'],
      ['negative duration', { ...good, duration: -1 }, ['body', 'duration'], 'greater_than'],
      ['missing duration', { frequency: 1, framerate: 10 }, ['body', 'duration'], 'missing'],
      ['duration over ten years', { ...good, frequency: 1_000_000, duration: 400_000_000 }, ['body', 'duration'], 'less_than_equal'],
      ['framerate 0', { ...good, framerate: 0 }, ['body', 'framerate'], 'greater_than'],
      ['negative framerate', { ...good, framerate: -24 }, ['body', 'framerate'], 'greater_than'],
      ['framerate over 240', { ...good, framerate: 241 }, ['body', 'framerate'], 'less_than_equal'],
      ['missing framerate', { frequency: 1, duration: 5 }, ['body', 'framerate'], 'missing'],
      ['duration shorter than the frequency', { ...good, frequency: 60, duration: 59 }, ['body', 'duration'], 'duration_too_short'],
      ['more frames than TIMELAPSE_MAX_FRAMES', { ...good, frequency: 1, duration: 11 }, ['body', 'duration'], 'too_many_frames'],
      ['a name that is a number', { ...good, name: 5 }, ['body', 'name'], 'string_type'],
      ['a name over 200 characters', { ...good, name: 'x'.repeat(201) }, ['body', 'name'], 'string_too_long'],
      ['an array body', [good], ['body'], 'model_type'],
    ])('%s', async (_what, body, loc, type) => {
      const res = await service.post('/timelapse/start', body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, type, msg: expect.any(String) })]));
      expect(existsSync(dir)).toBe(false);
      expect(await list(service)).toEqual([]);
      expect((await service.get('/timelapse/status')).body).toEqual({ running: false, metadata: null, config: null });
    });

    it.sequential('a body that is not JSON: 400; no body: 422', async () => {
      expect(
        (await service.request('POST', '/timelapse/start', { raw: '{"frequency":', headers: { 'content-type': 'application/json' } }))
          .status,
      ).toBe(400);
      expect((await service.request('POST', '/timelapse/start')).status).toBe(422);
      expect(existsSync(dir)).toBe(false);
    });

    it.sequential('says how many frames a too long timelapse would take', async () => {
      const res = await service.post('/timelapse/start', { frequency: 2, duration: 21, framerate: 1 });
      expect(res.body.detail[0].msg).toMatch(/11 frames, more than TIMELAPSE_MAX_FRAMES \(10\)/);
    });

    it.sequential('unknown ids: 404 for download and delete, whatever the id looks like', async () => {
      for (const id of ['3f0c4a52-0000-4000-8000-000000000000', 'nope', '..%2F..%2Fetc']) {
        const download = await service.get(`/timelapse/${id}/download`);
        expect(download.status, id).toBe(404);
        expect(download.body.detail).toMatch(/not found/);
        expect((await service.request('DELETE', `/timelapse/${id}`)).status, id).toBe(404);
      }
    });

    it.sequential(
      'accepts numeric strings and exactly TIMELAPSE_MAX_FRAMES frames; a second start is a 409 that changes nothing',
      async () => {
        const res = await service.post('/timelapse/start', { frequency: '1', duration: '10', framerate: '25', name: '  ' });
        expect(res.status, res.text).toBe(200);
        const { id, name } = res.body.metadata;
        expect(name).toBe(`Timelapse ${id.slice(0, 8)}`);
        expect(res.body.config).toEqual({ frequency: 1, duration: 10, framerate: 25, name });

        const second = await service.post('/timelapse/start', { frequency: 2, duration: 4, framerate: 1 });
        expect(second.status).toBe(409);
        expect(second.body.detail).toMatch(/already running/);
        expect(readdirSync(dir)).toEqual([id]);
        expect((await list(service)).map((m) => m.id)).toEqual([id]);
        expect((await service.get('/timelapse/status')).body).toMatchObject({
          running: true,
          metadata: { id },
          config: { frequency: 1, duration: 10 },
        });

        const download = await service.get(`/timelapse/${id}/download`);
        expect(download.status).toBe(409);
        expect((await service.request('DELETE', `/timelapse/${id}`)).status).toBe(204);
      },
    );
  });
});

describe.each(storeKinds())('timelapses in AUTH_MODE=enforced (%s)', (kind) => {
  let service: TestService;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    service = await startService(kind, { env: { AUTH_MODE: 'enforced', PICTURE_SOURCE: camera.url } });
    const form = (username: string) => ({
      raw: new URLSearchParams({ username, password: 'long enough' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    tokens.admin = (await service.request('POST', '/users/new/', form('root'))).body.access_token;
    tokens.editor = (await service.request('POST', '/users/new/', { ...form('ed'), token: tokens.admin })).body.access_token;
    const reader = await service.store.users.create({
      username: 'viewer',
      password_hash: 'unused',
      permissions: 2,
      created_at: Date.now(),
    });
    tokens.reader = await tokenService(await tokenSecret(undefined, service.store.settings), 3600_000).issue(reader!, Date.now());
  });
  afterAll(() => service?.close());

  const reads = ['/timelapse', '/timelapse/status', '/timelapse/frame-info'];

  it('reads need read (2): 401 without a token, 200 for a reader', async () => {
    for (const path of reads) {
      const anonymous = await service.get(path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
      expect((await service.get(path, { token: tokens.reader })).status, path).toBe(200);
    }
    expect((await service.get('/timelapse/latest-frame', { token: tokens.reader })).status).toBe(404);
    expect((await service.get('/timelapse/latest-frame')).status).toBe(401);
  });

  it('start, stop and delete need modify (4): 403 for a reader, and nothing starts', async () => {
    const start = { frequency: 60, duration: 600, framerate: 10 };
    expect((await service.post('/timelapse/start', start)).status).toBe(401);
    const refused = await service.post('/timelapse/start', start, { token: tokens.reader });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'Not enough permissions' });
    expect((await service.get('/timelapse/status', { token: tokens.reader })).body.running).toBe(false);
    expect(existsSync(service.config.timelapseDir)).toBe(false);

    const started = await service.post('/timelapse/start', start, { token: tokens.editor });
    expect(started.status, started.text).toBe(200);
    const { id } = started.body.metadata;
    expect((await service.post('/timelapse/stop', undefined, { token: tokens.reader })).status).toBe(403);
    expect((await service.request('DELETE', `/timelapse/${id}`, { token: tokens.reader })).status).toBe(403);
    expect((await service.get('/timelapse/status', { token: tokens.reader })).body.running).toBe(true);
    expect((await service.get(`/timelapse/${id}/download`, { token: tokens.reader })).status).toBe(409);
    expect((await service.get(`/timelapse/${id}/download`)).status).toBe(401);

    expect((await service.post('/timelapse/stop', undefined, { token: tokens.editor })).status).toBe(200);
    expect((await service.request('DELETE', `/timelapse/${id}`, { token: tokens.editor })).status).toBe(204);
  });
});

describe('the timelapse routes in the OpenAPI document', () => {
  let document: { paths: Record<string, Record<string, { description: string }>> };
  beforeAll(async () => {
    const service = await startService('sqlite');
    document = (await service.get('/openapi.json')).body;
    await service.close();
  });

  it.each([
    ['post', '/timelapse/start', 'Start Timelapse'],
    ['post', '/timelapse/stop', 'Stop Timelapse'],
    ['get', '/timelapse/status', 'Timelapse Status'],
    ['get', '/timelapse/frame-info', 'Timelapse Frame Info'],
    ['get', '/timelapse/latest-frame', 'Latest Timelapse Frame'],
    ['get', '/timelapse', 'Timelapses'],
    ['get', '/timelapse/{id}/download', 'Download Timelapse'],
    ['delete', '/timelapse/{id}', 'Delete Timelapse'],
  ])('has %s %s as "%s", tagged Timelapse and described', (method, path, summary) => {
    const operation = document.paths[path]?.[method];
    expect(operation, `${method} ${path}`).toBeDefined();
    expect(operation).toMatchObject({ summary, tags: ['Timelapse'], operationId: expect.stringMatching(/^[a-z][A-Za-z]+$/) });
    expect(operation.description.length).toBeGreaterThan(40);
  });
});
