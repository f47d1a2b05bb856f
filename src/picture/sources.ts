import { spawn } from 'node:child_process';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { detectImageType, type ImageType } from './image-type.js';

export interface Picture {
  bytes: Buffer;
  type: ImageType;
}

/** Any reason the camera gave no picture; the route answers 503 for all of them. */
export class CameraUnavailable extends Error {}

/** The largest picture taken from a source or an upload. */
export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;

/** Enough of a file's start to recognise its type. */
const SIGNATURE_BYTES = 16;

function asPicture(bytes: Buffer, what: string): Picture {
  const type = detectImageType(bytes);
  if (!type) throw new CameraUnavailable(`${what} did not give a JPEG, PNG or WebP image`);
  return { bytes, type };
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A snapshot URL (an ESP32-CAM /capture, an IP camera): the whole exchange, body included, within the time limit. */
async function fromUrl(url: string, timeoutMs: number): Promise<Picture> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow', headers: { accept: 'image/jpeg, image/png, image/webp' } });
  } catch (error) {
    throw new CameraUnavailable(`${url}: ${signal.aborted ? `no answer within ${timeoutMs} ms` : reason(error)}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (!response.ok || declared > MAX_PICTURE_BYTES) {
    await response.body?.cancel().catch(() => {});
    throw new CameraUnavailable(response.ok ? `${url} announced ${declared} bytes` : `${url} answered ${response.status}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES) {
        await response.body?.cancel().catch(() => {});
        throw new CameraUnavailable(`${url} sent more than ${MAX_PICTURE_BYTES} bytes`);
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof CameraUnavailable) throw error;
    throw new CameraUnavailable(`${url}: ${signal.aborted ? `image not received within ${timeoutMs} ms` : reason(error)}`);
  }
  return asPicture(Buffer.concat(chunks), url);
}

/** The first bytes of a file, or undefined when it cannot be read (gone, a folder, no permission). */
async function signatureOf(file: string): Promise<Buffer | undefined> {
  try {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(SIGNATURE_BYTES), 0, SIGNATURE_BYTES, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

async function readImage(file: string): Promise<Picture> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size > MAX_PICTURE_BYTES) throw new CameraUnavailable(`${file} is larger than ${MAX_PICTURE_BYTES} bytes`);
    return asPicture(await handle.readFile(), file);
  } finally {
    await handle.close();
  }
}

/**
 * The newest image file of a folder (a timelapse folder) by modification time. Other files are
 * skipped by their bytes, not their names; a file that vanishes while the folder is read (a
 * timelapse rotating its files) is skipped too.
 */
async function newestImage(dir: string): Promise<Picture> {
  const names = await readdir(dir);
  const files = await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      const info = await stat(file).catch(() => undefined);
      return info?.isFile() ? { file, mtime: info.mtimeMs } : undefined;
    }),
  );
  const newestFirst = files.filter((f) => f !== undefined).sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
  for (const { file } of newestFirst) {
    const signature = await signatureOf(file);
    if (!signature || !detectImageType(signature)) continue;
    try {
      return await readImage(file);
    } catch {
      // Gone or changed since: try the next one.
    }
  }
  throw new CameraUnavailable(`no JPEG, PNG or WebP image in ${dir}`);
}

/** A file, or the newest image file of a folder. */
async function fromPath(path: string): Promise<Picture> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? await newestImage(path) : await readImage(path);
  } catch (error) {
    if (error instanceof CameraUnavailable) throw error;
    throw new CameraUnavailable(`${path}: ${reason(error)}`);
  }
}

/**
 * A command whose standard output is the image (`libcamera-still -o -`). It runs through
 * /bin/sh, so quoting, pipelines and environment variables work as in a shell. It runs in a
 * process group of its own, so when it runs over the time limit the whole group (the shell and
 * everything it started) is killed, and the request is answered at the limit either way.
 */
function fromCommand(command: string, timeoutMs: number): Promise<Picture> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let settled = false;

    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      const said = stderr.trim().split('\n').at(-1);
      reject(new CameraUnavailable(said ? `${message}: ${said}` : message));
    };

    const timer = setTimeout(() => fail(`"${command}" ran over ${timeoutMs} ms`), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PICTURE_BYTES) fail(`"${command}" wrote more than ${MAX_PICTURE_BYTES} bytes`);
      else chunks.push(chunk);
    });
    // Only the end of what it said matters for the log line.
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-500);
    });
    child.on('error', (error) => fail(`"${command}": ${error.message}`));
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code !== 0) return fail(`"${command}" ${signal ? `was killed by ${signal}` : `exited with ${code}`}`);
      settled = true;
      clearTimeout(timer);
      try {
        resolve(asPicture(Buffer.concat(chunks), `"${command}"`));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** A file on a stuck network mount must not hold a request either. */
function withinTime<T>(work: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CameraUnavailable(`${what}: not read within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The capture function for a PICTURE_SOURCE value (already checked by the configuration). */
export function pictureSource(source: string, timeoutMs: number): () => Promise<Picture> {
  if (/^https?:\/\//.test(source)) return () => fromUrl(source, timeoutMs);
  if (source.startsWith('file:')) {
    // file:/abs, file:///abs and file:relative all name a path.
    const path = source.replace(/^file:(\/\/)?/, '');
    return () => withinTime(fromPath(path), timeoutMs, path);
  }
  if (source.startsWith('exec:')) {
    const command = source.slice('exec:'.length).trim();
    return () => fromCommand(command, timeoutMs);
  }
  throw new Error(`unknown picture source ${source}`);
}
