import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * The dashboard's Content-Security-Policy (docs/api.md §13): its own files only, no inline script, no
 * other origin, never in a frame. Styles need no 'unsafe-inline': the build emits one stylesheet,
 * and Preact and uPlot set styles through the CSSOM (`element.style`), which CSP allows.
 * `blob:` is for the camera picture and timelapse videos the page fetches and shows; `data:` for
 * its empty favicon and any small image Vite inlines into the stylesheet.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The API documentation (Swagger UI at /docs) under the same policy but for one thing: its bundle
 * applies an inline style at run time, which 'self' refuses. Inline styles cannot run code, so
 * 'unsafe-inline' for styles alone keeps what matters: scripts from the service's files only.
 */
export const DOCS_CSP = DASHBOARD_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/** X-Frame-Options for browsers that predate frame-ancestors. */
const pageHeaders = (csp: string) =>
  ({ 'content-security-policy': csp, 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' }) as const;
const DASHBOARD_HEADERS = pageHeaders(DASHBOARD_CSP);
const DOCS_HEADERS = pageHeaders(DOCS_CSP);

/** Every response: a browser takes a body for the type it is labelled with, never guesses another. */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

type OnRequest = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void;
const setting =
  (headers: Record<string, string>): OnRequest =>
  (_request, reply, done) => {
    reply.headers(headers);
    done();
  };

/** onRequest hooks for the routes of the dashboard and of the documentation. */
export const dashboardHeaders = setting(DASHBOARD_HEADERS);
export const docsHeaders = setting(DOCS_HEADERS);

/** Sets NOSNIFF on every response of the app (the hot reads set it themselves). */
export function registerNosniff(app: FastifyInstance): void {
  // A callback hook, set before anything else answers: it runs on every request.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(NOSNIFF);
    done();
  });
}
