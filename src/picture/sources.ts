import { spawn } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { detectImageType, type ImageType } from './image-type.js';

export interface Picture {
  bytes: Buffer;
  type: ImageType;
}

/** Any reason the camera gave no picture; the route answers 503 for all of them. */
export class CameraUnavailable extends Error {}

export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;

function asPicture(bytes: Buffer, what: string): Picture {
  const type = detectImageType(bytes);
  if (!type) throw new CameraUnavailable(`${what} did not give a JPEG, PNG or WebP image`);
  return { bytes, type };
}

/** A snapshot URL (an ESP32-CAM /capture, an IP camera), fetched within the time limit. */
async function fromUrl(url: string, timeoutMs: number): Promise<Picture> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    throw new CameraUnavailable(`${url}: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new CameraUnavailable(`${url} answered ${response.status}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES) throw new CameraUnavailable(`${url} sent more than ${MAX_PICTURE_BYTES} bytes`);
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof CameraUnavailable) throw error;
    throw new CameraUnavailable(`${url}: ${(error as Error).message}`);
  }
  return asPicture(Buffer.concat(chunks), url);
}

/** A file, or the newest image file of a folder (a timelapse folder). */
async function fromPath(path: string): Promise<Picture> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return asPicture(await readFile(path), path);
    const entries = await readdir(path, { withFileTypes: true });
    const files = await Promise.all(
      entries.filter((e) => e.isFile()).map(async (e) => ({ file: join(path, e.name), mtime: (await stat(join(path, e.name))).mtimeMs })),
    );
    files.sort((a, b) => b.mtime - a.mtime);
    for (const { file } of files) {
      const bytes = await readFile(file);
      if (detectImageType(bytes)) return asPicture(bytes, file);
    }
    throw new CameraUnavailable(`no image in ${path}`);
  } catch (error) {
    if (error instanceof CameraUnavailable) throw error;
    throw new CameraUnavailable(`${path}: ${(error as Error).message}`);
  }
}

/**
 * A command whose standard output is the image (`libcamera-still -o -`). It runs through
 * /bin/sh, so a pipeline works; it is killed, with anything it started, when it runs over.
 */
function fromCommand(command: string, timeoutMs: number): Promise<Picture> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: CameraUnavailable | undefined;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      failure = new CameraUnavailable(`"${command}" ran over ${timeoutMs} ms`);
      kill();
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES) {
        failure = new CameraUnavailable(`"${command}" wrote more than ${MAX_PICTURE_BYTES} bytes`);
        kill();
      } else {
        chunks.push(chunk);
      }
    });
    child.on('error', (error) => {
      failure ??= new CameraUnavailable(`"${command}": ${error.message}`);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0) return reject(new CameraUnavailable(`"${command}" exited with ${code}`));
      try {
        resolve(asPicture(Buffer.concat(chunks), `"${command}"`));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The capture function for a PICTURE_SOURCE value. */
export function pictureSource(source: string, timeoutMs: number): () => Promise<Picture> {
  if (/^https?:\/\//.test(source)) return () => fromUrl(source, timeoutMs);
  if (source.startsWith('file:')) {
    // file:/abs, file:///abs and file:relative all name a path.
    const path = source.replace(/^file:(\/\/)?/, '');
    return () => fromPath(path);
  }
  if (source.startsWith('exec:')) return () => fromCommand(source.slice('exec:'.length).trim(), timeoutMs);
  throw new Error(`unknown picture source ${source}`);
}
