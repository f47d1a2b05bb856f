import type { TestService } from '../helpers/service.js';

const MINUTE = 60_000;

/** A day of readings every 5 minutes for each default sensor, the newest half a minute old. */
export async function seedDay(service: TestService): Promise<void> {
  const now = Date.now();
  const series: Record<number, (i: number) => number> = {
    1: (i) => 1.5 + 0.3 * Math.sin(i / 20), // EC, mS/cm: ok between 1 and 2
    2: (i) => 6 + 0.5 * Math.sin(i / 15), // pH: ok between 4 and 7
    3: (i) => 22 + 4 * Math.sin(i / 30), // °C: ok between 10 and 30
  };
  for (const [sensorId, valueAt] of Object.entries(series)) {
    const rows = Array.from({ length: 288 }, (_, i) => ({
      sensor_id: Number(sensorId),
      value: Math.round(valueAt(i) * 100) / 100,
      timestamp: new Date(now - 30_000 - (287 - i) * 5 * MINUTE).toISOString(),
    }));
    const reply = await service.post('/measurements', rows);
    if (reply.status >= 300) throw new Error(`seeding failed: ${reply.status} ${reply.text.slice(0, 200)}`);
  }
}

/** A second prototype, so that the overview offers a picker. */
export async function secondPrototype(service: TestService): Promise<void> {
  await service.post('/prototypes', { prototype_id: 7, prototype_name: 'Greenhouse B' });
  await service.post('/sensors/', {
    sensor_type: 'humidity',
    prototype_id: 7,
    sensor_unit: '%',
    threshold_critically_low: 20,
    threshold_low: 40,
    threshold_high: 70,
    threshold_critically_high: 90,
  });
}
