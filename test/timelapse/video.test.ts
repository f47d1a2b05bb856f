import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assembleVideo, VideoFailure } from '../../src/timelapse/video.js';
import { probeVideo, realJpegs } from '../helpers/camera.js';
import { FAKE_IMAGES } from '../helpers/images.js';

let dir: string;
let frames: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sensorhub-video-'));
  frames = join(dir, 'frames');
  mkdirSync(frames);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const writeFrames = (pictures: Buffer[]) =>
  pictures.forEach((bytes, i) => writeFileSync(join(frames, `${String(i).padStart(6, '0')}.jpg`), bytes));
const options = (overrides: Partial<Parameters<typeof assembleVideo>[0]> = {}) => ({
  ffmpegPath: 'ffmpeg',
  framesDir: frames,
  extension: 'jpg',
  framerate: 7,
  output: join(dir, 'timelapse.mp4'),
  timeLimitMs: 60_000,
  ...overrides,
});

async function failure(work: Promise<unknown>): Promise<VideoFailure> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(VideoFailure);
  return error as VideoFailure;
}

describe('assembleVideo with the real ffmpeg', () => {
  it('makes an H.264 MP4 in yuv420p at the frame rate, one video frame per frame, readable by its owner only', async () => {
    writeFrames(realJpegs(5));
    await assembleVideo(options());
    expect(probeVideo(join(dir, 'timelapse.mp4'))).toEqual({ codec: 'h264', pixelFormat: 'yuv420p', frameRate: '7/1', frames: 5 });
    expect(statSync(join(dir, 'timelapse.mp4')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['frames', 'timelapse.mp4']);
  });

  it('takes odd sizes and a camera whose resolution changes mid-way', async () => {
    writeFrames([...realJpegs(2, '65x49'), ...realJpegs(2, '128x96')]);
    await assembleVideo(options({ framerate: 1 }));
    expect(probeVideo(join(dir, 'timelapse.mp4'))).toMatchObject({ codec: 'h264', frameRate: '1/1', frames: 4 });
  });

  it('says ffmpeg is missing, and how to install it', async () => {
    writeFrames(realJpegs(1));
    const error = await failure(assembleVideo(options({ ffmpegPath: join(dir, 'no-such-ffmpeg') })));
    expect(error.kind).toBe('missing');
    expect(error.message).toMatch(/ffmpeg was not found .*apt install ffmpeg/);
    expect(existsSync(join(dir, 'timelapse.mp4'))).toBe(false);
  });

  it('reports ffmpeg failing on frames it cannot read, and leaves no file', async () => {
    const unreadable = FAKE_IMAGES['JPEG magic followed by text'];
    writeFrames([unreadable, unreadable]);
    const error = await failure(assembleVideo(options()));
    expect(error.kind).toBe('failed');
    expect(error.message).toMatch(/^ffmpeg exited with \d+/);
    expect(readdirSync(dir)).toEqual(['frames']);
  });

  describe('an ffmpeg that hangs', () => {
    const hanging = () => {
      const script = join(dir, 'ffmpeg');
      writeFileSync(script, `#!/bin/sh\necho $$ > ${join(dir, 'pid')}\nexec sleep 60\n`);
      chmodSync(script, 0o755);
      return script;
    };
    const gone = (pid: number) => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    // The shell makes the file before it writes the number: an empty file is not a pid yet.
    const pidWritten = () => (existsSync(join(dir, 'pid')) ? Number(readFileSync(join(dir, 'pid'), 'utf8')) : 0);
    const waitForPid = async () => {
      for (let i = 0; i < 2000 && !pidWritten(); i++) await new Promise((r) => setTimeout(r, 10));
      const pid = pidWritten();
      expect(pid).toBeGreaterThan(0);
      return pid;
    };

    it('is killed at its time limit', async () => {
      writeFrames(realJpegs(1));
      const error = await failure(assembleVideo(options({ ffmpegPath: hanging(), timeLimitMs: 3000 })));
      expect(error.kind).toBe('timeout');
      expect(error.message).toMatch(/time limit/);
      const pid = await waitForPid();
      for (let i = 0; i < 1000 && !gone(pid); i++) await new Promise((r) => setTimeout(r, 10));
      expect(gone(pid)).toBe(true);
      expect(existsSync(join(dir, 'timelapse.mp4'))).toBe(false);
    });

    it('is killed when the assembly is aborted', async () => {
      writeFrames(realJpegs(1));
      const abort = new AbortController();
      const work = assembleVideo(options({ ffmpegPath: hanging(), signal: abort.signal }));
      const pid = await waitForPid();
      abort.abort();
      expect((await failure(work)).message).toMatch(/aborted/);
      for (let i = 0; i < 1000 && !gone(pid); i++) await new Promise((r) => setTimeout(r, 10));
      expect(gone(pid)).toBe(true);
    });
  });
});
