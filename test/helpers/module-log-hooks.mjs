// The resolve hook of module-log.mjs (it runs on the loader's own thread).
import { appendFileSync } from 'node:fs';
import process from 'node:process';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(process.env.SENSORHUB_MODULE_LOG, `${resolved.url}\n`);
  return resolved;
}
