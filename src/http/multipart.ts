import multipart, { type FastifyMultipartAttachFieldsToBodyOptions } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * @fastify/multipart as the login and user forms take it. (Hiding `globalThis.FormData` while it
 * registers would spare Node loading fetch, about 2–3 MB in the service, but the global is shared
 * with whatever runs during that await, so it is left alone.)
 */
export async function registerMultipart(app: FastifyInstance, options: FastifyMultipartAttachFieldsToBodyOptions): Promise<void> {
  await app.register(multipart, options);
}
