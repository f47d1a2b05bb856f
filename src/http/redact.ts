/** A token in a query (`?access_token=`, for EventSource) must never reach a log line. */
const QUERY_TOKEN = /([?&]access_token=)[^&#]*/gi;

/** The URL as it may be logged: the value of any `access_token` parameter replaced. */
export function withoutToken(url: string): string {
  return url.includes('access_token') ? url.replace(QUERY_TOKEN, '$1[redacted]') : url;
}
