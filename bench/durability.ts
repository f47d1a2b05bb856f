/**
 * The longer durability check: rounds of sustained concurrent ingest into a real service process,
 * killed with SIGKILL (or stopped with SIGTERM) mid-stream, restarted on the same store, and every
 * acknowledged measurement looked for. `npx tsx bench/durability.ts [rounds] [seconds per round]`.
 */
import { join } from 'node:path';
import { startService } from './lib/processes.js';
import { temporaryFolder } from './lib/temporary.js';

const rounds = Number(process.argv[2] ?? 10);
const seconds = Number(process.argv[3] ?? 5);

async function round(
  databaseUrl: string,
  signal: NodeJS.Signals,
  sensorId: number,
): Promise<{ acknowledged: number; lost: number; partial: number }> {
  const service = await startService({ DATABASE_URL: databaseUrl });
  const sent: { values: number[]; ok: boolean }[] = [];
  let next = sensorId * 1e9;
  let running = true;
  const writers = Array.from({ length: 32 }, async (_, w) => {
    while (running) {
      const values = Array.from({ length: w % 2 ? 50 : 1 }, () => next++);
      const record = { values, ok: false };
      sent.push(record);
      try {
        const res = await fetch(`${service.url}/measurements`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(values.map((value) => ({ sensor_id: sensorId, value }))),
        });
        await res.arrayBuffer();
        record.ok = res.status === 200;
      } catch {
        return;
      }
    }
  });
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await service.stop(signal);
  running = false;
  await Promise.all(writers);

  const check = await startService({ DATABASE_URL: databaseUrl });
  try {
    const rows = (await (await fetch(`${check.url}/measurements/${sensorId}`)).json()) as { value: number }[];
    const stored = new Set(rows.map((r) => r.value));
    let lost = 0;
    let partial = 0;
    for (const request of sent) {
      const present = request.values.filter((v) => stored.has(v)).length;
      if (request.ok && present !== request.values.length) lost++;
      if (present !== 0 && present !== request.values.length) partial++;
    }
    return { acknowledged: sent.filter((s) => s.ok).length, lost, partial };
  } finally {
    await check.stop();
  }
}

const folder = temporaryFolder('sensorhub-durability-');
const dir = folder.path;
let failures = 0;
try {
  for (let i = 0; i < rounds; i++) {
    const signal = i % 2 ? 'SIGTERM' : 'SIGKILL';
    const result = await round(`sqlite:${join(dir, 'store.db')}`, signal, 1 + (i % 3));
    console.log(
      `round ${i + 1}/${rounds} ${signal}: ${result.acknowledged} acknowledged requests, ${result.lost} lost, ${result.partial} half-written`,
    );
    if (result.lost || result.partial) failures++;
  }
} finally {
  folder.remove();
}
console.log(failures === 0 ? 'every acknowledged measurement survived' : `${failures} rounds lost data`);
process.exit(failures === 0 ? 0 : 1);
