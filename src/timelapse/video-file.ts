import { basename, dirname } from 'node:path';
import type { Readable } from 'node:stream';
import send from '@fastify/send';

/** How a video download is answered: the file (whole, a range, or not modified), or why not. */
export type VideoAnswer =
  | { kind: 'file'; status: number; headers: Record<string, string>; stream: Readable }
  /** The file is gone (deleted between the look-up and the read). */
  | { kind: 'gone' }
  /** A range past the end (416, with the size in `contentRange`) or a failed precondition (412). */
  | { kind: 'refused'; status: number; detail: string; contentRange?: string };

/** The video file at `path`, as the request's Range and conditional headers ask for it. */
export async function videoAnswer(request: Readable, path: string): Promise<VideoAnswer> {
  const file = await send(request, `/${basename(path)}`, {
    root: dirname(path),
    contentType: false,
    cacheControl: false,
    dotfiles: 'allow',
    index: false,
  });
  if (file.type === 'file') return { kind: 'file', status: file.statusCode, headers: file.headers, stream: file.stream };
  file.stream.destroy();
  if (file.statusCode === 404) return { kind: 'gone' };
  const detail = file.type === 'error' ? file.metadata.error.message : 'Not a file';
  return { kind: 'refused', status: file.statusCode, detail, contentRange: file.headers['Content-Range'] };
}
