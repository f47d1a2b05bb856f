/**
 * The one thing the simulator knows of the service: its HTTP API. Live runs speak it over the
 * network; fast runs hand the same requests to the in-process app (see fast.ts).
 */
export interface ApiReply {
  status: number;
  body: unknown;
}

export type Api = (method: string, path: string, body?: unknown) => Promise<ApiReply>;

export class ApiError extends Error {
  constructor(
    readonly what: string,
    readonly reply: ApiReply,
  ) {
    super(`${what}: HTTP ${reply.status} ${JSON.stringify((reply.body as { detail?: unknown } | null)?.detail ?? reply.body)}`);
  }
}

/** The reply's body when the status is 200, else an ApiError naming what was tried. */
export async function expectOk<T>(what: string, reply: Promise<ApiReply>): Promise<T> {
  const answer = await reply;
  if (answer.status !== 200) throw new ApiError(what, answer);
  return answer.body as T;
}

/** The API of a running service at `baseUrl`, with a bearer token in enforced mode. */
export function httpApi(baseUrl: string, token?: string): Api {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, body) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, body: parsed };
  };
}
