/**
 * Numbers written as text, recognised in one pass: the numeric strings of a JSON body, the query
 * string and the path (HTTP), and the plain-number payloads of MQTT devices share this one
 * function, so a limit or a fix reaches every way in. Pure: no I/O.
 */

/**
 * The longest numeric text taken as a number. A double needs at most 17 significant digits; longer
 * text is no number a client means, and is refused (over HTTP it stays a string, which the schema refuses).
 */
export const MAX_NUMERIC_TEXT = 64;

const isDigit = (code: number) => code >= 48 && code <= 57;

/** The end of the run of digits starting at `i`. */
function digitsFrom(text: string, i: number): number {
  while (i < text.length && isDigit(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Whether `text` is entirely a decimal number: `[-+]?digits`, or for a number also a fraction and
 * an exponent (`-1.5e3`, `.5`, `2.`). One pass over the text, no backtracking: a regular
 * expression with two ways to split a run of digits takes time growing with the square of the
 * length on text that fails at its end (`"111…1x"`).
 */
export function isNumericText(text: string, kind: 'integer' | 'number' | 'digits'): boolean {
  if (text.length === 0 || text.length > MAX_NUMERIC_TEXT) return false;
  if (kind === 'digits') return digitsFrom(text, 0) === text.length;
  let i = 0;
  let end = text.length;
  // Blanks around the number, as sent by scripts that format their arguments.
  while (i < end && isBlank(text.charCodeAt(i))) i++;
  while (end > i && isBlank(text.charCodeAt(end - 1))) end--;
  const body = text.slice(i, end);
  let at = body.startsWith('-') || body.startsWith('+') ? 1 : 0;
  const intEnd = digitsFrom(body, at);
  const intDigits = intEnd - at;
  at = intEnd;
  if (kind === 'integer') return intDigits > 0 && at === body.length;
  let fracDigits = 0;
  if (body[at] === '.') {
    const fracEnd = digitsFrom(body, at + 1);
    fracDigits = fracEnd - at - 1;
    at = fracEnd;
  }
  if (intDigits === 0 && fracDigits === 0) return false;
  if (body[at] === 'e' || body[at] === 'E') {
    at++;
    if (body[at] === '-' || body[at] === '+') at++;
    const expEnd = digitsFrom(body, at);
    if (expEnd === at) return false;
    at = expEnd;
  }
  return at === body.length;
}

/** The blanks `\s` stood for in the ASCII range: space, tab, line feed, vertical tab, form feed, carriage return. */
function isBlank(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}
