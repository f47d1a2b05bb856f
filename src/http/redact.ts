/**
 * A token in a query (`?access_token=`, for EventSource) must never reach a log line. The query
 * parser decodes parameter names (`access%5Ftoken` is `access_token` to it, and authenticates), so
 * names are compared decoded, as the parser decodes them, and in any case.
 */
const TOKEN_PARAMETER = 'access_token';

/** Only a URL holding the name as it is or a percent escape can name the parameter. */
const MAY_NAME_TOKEN = /access_token|%/i;

/** A parameter name as the query parser reads it: `+` is a space, escapes decoded, kept raw when malformed. */
function decodedName(raw: string): string {
  const name = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** Where the query starts: after the first `?` or `#`, as the router splits the URL; -1 without one. */
function queryStart(url: string): number {
  const question = url.indexOf('?', 1);
  const hash = url.indexOf('#', 1);
  if (question < 0) return hash;
  return hash < 0 ? question : Math.min(question, hash);
}

/** An acknowledge link's token is a path segment: it acknowledges an alert without logging in. */
const ACK_LINK = /^(\/notifications\/ack\/)[^/?#]+/i;

/**
 * The URL as it may be logged: the value of every parameter whose name decodes to `access_token`
 * replaced, and an acknowledge link's token.
 */
export function withoutToken(raw: string): string {
  const url = raw.replace(ACK_LINK, '$1[redacted]');
  if (!MAY_NAME_TOKEN.test(url)) return url;
  const start = queryStart(url);
  if (start < 0) return url;
  const parameters = url
    .slice(start + 1)
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      const name = equals < 0 ? parameter : parameter.slice(0, equals);
      return decodedName(name).trim().toLowerCase() === TOKEN_PARAMETER ? `${name}=[redacted]` : parameter;
    });
  return `${url.slice(0, start + 1)}${parameters.join('&')}`;
}
