/**
 * The scorecard is a gate: every scenario runs against the real service with its default safety
 * settings, and the suite fails when a fault does not end held in time or a healthy tank gets
 * held or leaves its band (src/simulator/gate.ts says what each scenario's safe outcome is).
 * The same outcomes are checked on another tank: a bigger one (a dose moves the pH less) with
 * another noise level, so the rules hold for tanks in general, not for the simulator's numbers.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { SCORECARD_POLL_SECONDS, scoredRun } from '../../src/simulator/cli.js';
import { type Scenario, SCENARIOS, scenarioNamed } from '../../src/simulator/scenarios.js';
import type { TankParams } from '../../src/simulator/tank.js';

/**
 * All the runs take about 40 s of CPU together (the drifting probe, 68 simulated hours, a third of
 * it); the limit per run is wide so that a machine busy with other work does not fail the gate.
 */
const RUN_TIMEOUT_MS = 600_000;

const run = (scenario: Scenario, tank?: Partial<TankParams>) =>
  scoredRun(scenario, { buildApp, hours: scenario.hours, pollEverySeconds: SCORECARD_POLL_SECONDS, tank });

describe('the scorecard gate, default settings', () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))(
    '%s: a safe outcome',
    async (_name, scenario) => {
      const card = await run(scenario);
      expect(card.verdict?.safe, `${scenario.name}: ${card.verdict?.text}`).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );

  it('covers the scenarios a grower meets', () => {
    const names = SCENARIOS.map((s) => s.name);
    for (const name of [
      'healthy',
      'noisy-healthy',
      'growth-spurt',
      'top-ups',
      'empty-acid',
      'wrong-bottle',
      'stuck-ph',
      'drifting-ph',
      'two-controllers',
      'dead-controller',
      'low-water',
      'restart',
    ]) {
      expect(names).toContain(name);
    }
  });
});

describe('the scorecard gate on a bigger tank with another noise level', () => {
  // A dose moves the pH 0.06 instead of 0.1; the probe wavers by ±0.03.
  const bigger: Partial<TankParams> = { acidPhPerSecond: 0.03, noise: { ph: 0.03, ec: 0.01, temperature: 0.1, water_level: 0.2 } };
  it.each(['healthy', 'empty-acid', 'wrong-bottle', 'stuck-ph'])(
    '%s: a safe outcome',
    async (name) => {
      const scenario = scenarioNamed(name)!;
      const card = await run({ ...scenario, tank: { ...scenario.tank, ...bigger } });
      expect(card.verdict?.safe, `${name}: ${card.verdict?.text}`).toBe(true);
    },
    RUN_TIMEOUT_MS,
  );
});
