import { ApiError } from './errors';
import { storedToken } from '../state/session';

type Unauthorized = () => void;
let onUnauthorized: Unauthorized = () => {};

/** Told when the service answers 401: the token expired or was logged out, so the page goes back to login. */
export function whenUnauthorized(handler: Unauthorized): void {
  onUnauthorized = handler;
}

export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** `?a=1&b=2&b=3`: arrays become repeated keys (the export's `sensor_id`), undefined is left out. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface RequestOptions {
  query?: Query;
  json?: unknown;
  form?: Record<string, string>;
}

/** One request to the service on this origin; a non-2xx answer is thrown as an ApiError. */
export async function send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  const token = storedToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  }
  const response = await fetch(path + queryString(options.query), { method, headers, body });
  if (response.ok) return response;
  const { detail, body: answered } = await errorBody(response);
  if (response.status === 401 && token) onUnauthorized();
  throw new ApiError(response.status, detail, answered);
}

export async function sendJson<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(method, path, options);
  return (await response.json()) as T;
}

async function errorBody(response: Response): Promise<Pick<ApiError, 'detail' | 'body'>> {
  const text = await response.text();
  try {
    const parsed = JSON.parse(text) as { detail?: ApiError['detail'] };
    if (parsed.detail !== undefined) return { detail: parsed.detail, body: parsed };
  } catch {
    // Not JSON (a proxy's error page): the status line says enough.
  }
  return { detail: `${response.status} ${response.statusText}`.trim(), body: {} };
}
