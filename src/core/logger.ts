/**
 * Where a module reports what happened: pino's signature, so the app's logger fits, and a test
 * may pass a plain object that records the lines.
 */
export interface Logger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}
