import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { CameraUnavailable, MAX_PICTURE_BYTES, reason } from './errors.js';
import { fileGate } from './file-gate.js';
import { readRegularFile } from './file-read.js';
import { NewestInFolder } from './folder.js';
import { type ImageType, inspectImage } from './image-type.js';

export { CameraUnavailable, MAX_PICTURE_BYTES } from './errors.js';

export interface Picture {
  bytes: Buffer;
  type: ImageType;
}

/** A complete JPEG, PNG or WebP image whose header gives its dimensions, else the camera failed. */
function asPicture(bytes: Buffer, what: string): Picture {
  const check = inspectImage(bytes);
  if (!check.ok) throw new CameraUnavailable(`${what} did not give a usable image: ${check.problem}`);
  return { bytes, type: check.image.type };
}

/** Redirects followed by a snapshot URL: enough for a camera moved behind a proxy, never a loop. */
export const MAX_REDIRECTS = 3;

/**
 * A snapshot URL (an ESP32-CAM /capture, an IP camera): the whole exchange, body included, within
 * the time limit. Redirects are followed by hand, at most MAX_REDIRECTS, and only to the scheme of
 * the configured URL (no https → http downgrade, no http → https surprise).
 */
async function fromUrl(url: string, timeoutMs: number): Promise<Picture> {
  const signal = AbortSignal.timeout(timeoutMs);
  const scheme = new URL(url).protocol;
  let response: Response;
  let current = url;
  for (let redirects = 0; ; redirects++) {
    try {
      response = await fetch(current, { signal, redirect: 'manual', headers: { accept: 'image/jpeg, image/png, image/webp' } });
    } catch (error) {
      throw new CameraUnavailable(`${url}: ${signal.aborted ? `no answer within ${timeoutMs} ms` : reason(error)}`);
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) break;
    await response.body?.cancel().catch(() => {});
    const next = URL.canParse(location, current) ? new URL(location, current) : undefined;
    if (!next || next.protocol !== scheme) throw new CameraUnavailable(`${url} redirected to ${location}, not ${scheme} like the source`);
    if (redirects >= MAX_REDIRECTS) throw new CameraUnavailable(`${url} redirected more than ${MAX_REDIRECTS} times`);
    current = next.href;
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

/**
 * A file, or the newest image of a folder. The path is what the operator configured, so a symlink
 * there is followed; anything but a regular file or a folder (a FIFO, a device) is refused before
 * it is opened.
 */
function fromPath(path: string): { capture: () => Promise<Picture>; close: () => void } {
  let folder: NewestInFolder | undefined;
  return {
    capture: async () => {
      try {
        const info = await stat(path);
        if (info.isDirectory()) {
          folder ??= new NewestInFolder(path);
          return await folder.capture();
        }
        return asPicture(await readRegularFile(path, info, { followLinks: true }), path);
      } catch (error) {
        if (error instanceof CameraUnavailable) throw error;
        throw new CameraUnavailable(`${path}: ${reason(error)}`);
      }
    },
    close: () => folder?.close(),
  };
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

/**
 * The state of a source for /healthz: `ok` or `failing` by its last capture, `unknown` before the
 * first, `stuck` while a file capture has run past its limit without returning (file captures
 * wait until it does).
 */
export type SourceState = 'ok' | 'failing' | 'stuck' | 'unknown';

/** A capture function (its interface as before) that also tells its state and can be closed. */
export type PictureSource = (() => Promise<Picture>) & {
  state(): SourceState;
  /** Releases what the source holds between captures (a folder watch). */
  close(): void;
};

/** The capture function for a PICTURE_SOURCE value (already checked by the configuration). */
export function pictureSource(source: string, timeoutMs: number): PictureSource {
  let capture: () => Promise<Picture>;
  let close = () => {};
  let isStuck = () => false;
  if (/^https?:\/\//.test(source)) capture = () => fromUrl(source, timeoutMs);
  else if (source.startsWith('file:')) {
    // file:/abs, file:///abs and file:relative all name a path.
    const path = source.replace(/^file:(\/\/)?/, '');
    const file = fromPath(path);
    capture = () => fileGate.run(file.capture, timeoutMs, path);
    close = file.close;
    isStuck = () => fileGate.stuck();
  } else if (source.startsWith('exec:')) {
    const command = source.slice('exec:'.length).trim();
    capture = () => fromCommand(command, timeoutMs);
  } else throw new Error(`unknown picture source ${source}`);

  let last: 'ok' | 'failing' | undefined;
  const tracked = async () => {
    try {
      const picture = await capture();
      last = 'ok';
      return picture;
    } catch (error) {
      last = 'failing';
      throw error;
    }
  };
  return Object.assign(tracked, { state: (): SourceState => (isStuck() ? 'stuck' : (last ?? 'unknown')), close });
}
