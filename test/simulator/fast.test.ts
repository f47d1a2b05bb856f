/**
 * Fast runs: the real service in-process on a simulated clock, driven through its API by the
 * simulated tank and controller.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Api } from '../../src/simulator/api.js';
import { runFast } from '../../src/simulator/fast.js';
import { scenarioNamed } from '../../src/simulator/scenarios.js';
import { scorecard } from '../../src/simulator/scorecard.js';
import type { DeviceIds } from '../../src/simulator/setup.js';

describe('a fast run', () => {
  it('closes the loop on a healthy tank: the pump doses, the pH stays in its band, the readings are stored', async () => {
    let stored: { ph: any[]; water: any[]; pump: any } | undefined;
    const log = await runFast({
      buildApp,
      scenario: scenarioNamed('healthy')!,
      hours: 6,
      inspect: async (api: Api, ids: DeviceIds) => {
        const ph = (await api('GET', `/measurements/${ids.ph}`)).body as any[];
        const water = (await api('GET', `/measurements/${ids.water_level}`)).body as any[];
        const pumps = (await api('GET', '/actuators/1')).body as any[];
        stored = { ph, water, pump: pumps.find((a) => a.actuator_id === ids.acid_pump) };
      },
    });
    const card = scorecard(log);
    // The pH starts at 6.0 and rises 0.12 an hour: it crosses 6.5 after about 4 h, then the pump holds it.
    expect(card.doses).toBeGreaterThan(0);
    expect(card.secondsPumped).toBe(card.doses * 2);
    expect(card.timeInBand).toBe(1);
    expect(card.truePhMax).toBeLessThan(6.7);
    // Every reading went in with its simulated time: one per minute for 6 h, the first at the start.
    expect(stored!.ph).toHaveLength(6 * 60 + 1);
    expect(stored!.ph.map((m) => m.value)).toEqual(log.samples.map((sample) => sample.probePh));
    expect(Date.parse(stored!.ph[0].timestamp)).toBe(log.startMs);
    expect(Date.parse(stored!.ph.at(-1).timestamp)).toBe(log.startMs + 6 * 3600_000);
    expect(stored!.water.at(-1).value).toBeLessThan(stored!.water[0].value);
    // The service saw the last run reported at the simulated moment it happened.
    expect(stored!.pump).toMatchObject({ enabled: true, activation_condition: 'high', condition_value: 6.5, activation_period: 300 });
    expect(Date.parse(stored!.pump.last_activated)).toBe(log.doses.at(-1)!.at);
    // Doses are at least a period apart: the service's decision, on the simulated clock.
    const gaps = log.doses.slice(1).map((dose, i) => dose.at - log.doses[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(300_000);
  });

  it('reports no run when the controller is dead', async () => {
    let pump: any;
    const log = await runFast({
      buildApp,
      scenario: scenarioNamed('dead-controller')!,
      hours: 8,
      inspect: async (api, ids) => {
        pump = ((await api('GET', '/actuators/1')).body as any[]).find((a) => a.actuator_id === ids.acid_pump);
      },
    });
    expect(log.doses).toEqual([]);
    // The service never heard of a run: last_activated is still the pump's creation, at the start.
    expect(Date.parse(pump.last_activated)).toBe(log.startMs);
    // It polled (every 10 s) for its first ten minutes only, while the pH was still under 6.5.
    expect(log.controllerLastSeenAt).toBe(log.startMs + 590_000);
    // Meanwhile the tank's pH climbed past the pump's condition with nobody dosing.
    expect(scorecard(log).truePhMax).toBeGreaterThan(6.9);
  });

  it('keeps running across a restart of the service on the same store', async () => {
    const log = await runFast({ buildApp, scenario: scenarioNamed('restart')!, hours: 8 });
    expect(log.restartedAt).toBe(log.startMs + 4 * 3600_000);
    expect(log.doses.some((dose) => dose.at > log.restartedAt!)).toBe(true);
  });
});
