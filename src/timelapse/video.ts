import { spawn } from 'node:child_process';
import type { Logger } from '../core/logger.js';
import { chmod, rename, rm } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { FILE_MODE } from './folder.js';
import type { VideoFailureKind } from './record.js';

export class VideoFailure extends Error {
  constructor(
    readonly kind: VideoFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'VideoFailure';
  }
}

/**
 * How long ffmpeg may take: ten minutes, plus a second per frame (a Raspberry Pi encodes a few
 * 1080p frames a second with the veryfast preset, so this leaves a wide margin).
 */
export const assemblyTimeLimitMs = (frames: number) => 10 * 60_000 + frames * 1000;

export interface AssembleOptions {
  ffmpegPath: string;
  /** The frames, `000000.<extension>` onwards without gaps. */
  framesDir: string;
  extension: string;
  framerate: number;
  /** The finished video; it appears only once complete. */
  output: string;
  timeLimitMs: number;
  /** Aborts the assembly (the timelapse was deleted, or the service is stopping). */
  signal?: AbortSignal;
}

/** What is said, in the log and on download, when there is no ffmpeg to run. */
export const ffmpegMissing = (ffmpegPath: string) =>
  `ffmpeg was not found (FFMPEG_PATH=${ffmpegPath}): install it (apt install ffmpeg) or set FFMPEG_PATH`;

/** ffmpeg's arguments: an H.264 MP4 in yuv420p (what every player plays) at the timelapse's frame rate. */
function ffmpegArguments(options: AssembleOptions, target: string): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
    ...['-framerate', String(options.framerate), '-start_number', '0'],
    // A camera whose resolution changes mid-way: frames are scaled to the first one's size instead
    // of the encoder being handed a new size it cannot take.
    ...['-reinit_filter', '0'],
    ...['-i', join(options.framesDir, `%06d.${options.extension}`)],
    // yuv420p needs even dimensions.
    ...['-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-r', String(options.framerate)],
    ...['-movflags', '+faststart', '-f', 'mp4', target],
  ];
}

/** Runs ffmpeg as a child process within the time limit; rejects with a VideoFailure that says why. */
export async function assembleVideo(options: AssembleOptions): Promise<void> {
  const partial = join(dirname(options.output), '.timelapse.mp4.partial');
  try {
    await runFfmpeg(options, partial);
    await chmod(partial, FILE_MODE);
    await rename(partial, options.output);
  } finally {
    await rm(partial, { force: true });
  }
}

function runFfmpeg(options: AssembleOptions, target: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new VideoFailure('failed', 'assembly aborted'));
    const child = spawn(options.ffmpegPath, ffmpegArguments(options, target), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (failure?: VideoFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      if (failure) {
        child.kill('SIGKILL');
        reject(failure);
      } else {
        resolve();
      }
    };
    const abort = () => finish(new VideoFailure('failed', 'assembly aborted'));
    const timer = setTimeout(
      () => finish(new VideoFailure('timeout', `ffmpeg ran over its time limit of ${Math.round(options.timeLimitMs / 1000)} s`)),
      options.timeLimitMs,
    );
    options.signal?.addEventListener('abort', abort, { once: true });

    // Encoding is the heaviest work on a small machine: it yields to the requests.
    child.once('spawn', () => {
      try {
        if (child.pid) setPriority(child.pid, 10);
      } catch {
        // Not allowed here: it runs at normal priority.
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-1000);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      finish(
        error.code === 'ENOENT'
          ? new VideoFailure('missing', ffmpegMissing(options.ffmpegPath))
          : new VideoFailure('failed', `ffmpeg could not run: ${error.message}`),
      );
    });
    child.once('close', (code, signal) => {
      if (code === 0) return finish();
      const said = stderr.trim().split('\n').at(-1);
      const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
      finish(new VideoFailure('failed', said ? `ffmpeg ${how}: ${said}` : `ffmpeg ${how}`));
    });
  });
}

/** Whether FFMPEG_PATH names a program that runs (said early, when a timelapse starts). */
export function ffmpegRuns(ffmpegPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(ffmpegPath, ['-version'], { stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });
}

/** Frames are taken without ffmpeg, but the operator is told no video can be made. */
export async function warnIfFfmpegMissing(ffmpegPath: string, log: Pick<Logger, 'warn'>): Promise<void> {
  if (!(await ffmpegRuns(ffmpegPath))) {
    log.warn({ ffmpeg: ffmpegPath }, `timelapse frames are taken, but no video can be made: ${ffmpegMissing(ffmpegPath)}`);
  }
}
