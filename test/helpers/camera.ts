import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Real JPEGs (ffmpeg's test pattern, a different picture each), so ffmpeg can make a video of them. */
export function realJpegs(count: number, size = '64x48'): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), 'sensorhub-jpegs-'));
  try {
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=${size}:rate=1`,
      '-frames:v',
      String(count),
      join(dir, '%03d.jpg'),
    ]);
    return readdirSync(dir)
      .sort()
      .map((name) => readFileSync(join(dir, name)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface CameraStandIn {
  url: string;
  /** Pictures served and failures answered so far. */
  served: number;
  failed: number;
  /** `flaky`: every other request fails with a 500. */
  mode: 'ok' | 'flaky';
  close(): Promise<void>;
}

/** The stand-ins' pictures, made once per test worker: several cameras can run side by side. */
let cameraPictures: Buffer[] | undefined;

/** A snapshot camera on a real port whose picture changes at every request. */
export async function startCamera(): Promise<CameraStandIn> {
  const pictures = (cameraPictures ??= realJpegs(8));
  let requests = 0;
  const camera: CameraStandIn = {
    url: '',
    served: 0,
    failed: 0,
    mode: 'ok',
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((_req, res) => {
    requests++;
    if (camera.mode === 'flaky' && requests % 2 === 0) {
      camera.failed++;
      res.writeHead(500, { 'content-type': 'text/plain' });
      return void res.end('sensor error');
    }
    camera.served++;
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(pictures[requests % pictures.length]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  camera.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/capture`;
  return camera;
}

export interface VideoFacts {
  codec: string;
  pixelFormat: string;
  frameRate: string;
  frames: number;
}

/** What ffprobe says of a video's first stream, decoding every frame to count them. */
export function probeVideo(file: string): VideoFacts {
  const out = execFileSync('ffprobe', [
    ...['-v', 'error', '-count_frames', '-select_streams', 'v:0'],
    ...['-show_entries', 'stream=codec_name,pix_fmt,r_frame_rate,nb_read_frames', '-of', 'json', file],
  ]).toString();
  const [stream] = JSON.parse(out).streams as Record<string, string>[];
  return { codec: stream.codec_name, pixelFormat: stream.pix_fmt, frameRate: stream.r_frame_rate, frames: Number(stream.nb_read_frames) };
}
