import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How an answer may be kept by the browser (send's options). */
export interface Caching {
  maxAge?: string;
  immutable?: boolean;
  /** false: no Cache-Control from here (the route sets its own). */
  cacheControl?: boolean;
}

/**
 * Answers with the file at `path` below `root`: ETag and Last-Modified with their 304s, ranges and
 * HEAD, as `send` does them; a path that leaves the root, names a dotfile or a folder, or finds
 * nothing is the service's 404. (What @fastify/static adds on top, folders, listings, compressed
 * copies, is not needed for a built page, and its plugin was memory held at every start.)
 */
export async function sendFileFrom(root: string, request: FastifyRequest, reply: FastifyReply, path: string, caching: Caching) {
  // send() decodes the path it is given: the route's already decoded path goes in encoded again.
  const file = await send(request.raw, encodeURI(`/${path}`), { root, index: false, ...caching });
  if (file.type === 'file') return reply.code(file.statusCode).headers(file.headers).send(file.stream);
  file.stream.destroy();
  // 403 is send's answer to a folder or a path that climbs out of the root: to a visitor, nothing is there.
  if (file.type === 'directory' || file.statusCode === 404 || file.statusCode === 403) return reply.callNotFound();
  return reply.code(file.statusCode).send({ detail: file.metadata.error.message });
}
