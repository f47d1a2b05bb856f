import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../src/simulator/args.js';
import { SCORECARD_HEADING, withScorecardSection } from '../../src/simulator/benchmarks.js';
import { emptyLog, type RunLog } from '../../src/simulator/run-log.js';
import { mostInWindow, scorecard, scorecardTable, timeInBand } from '../../src/simulator/scorecard.js';

const T0 = Date.UTC(2026, 0, 1);
const s = (seconds: number) => T0 + seconds * 1000;

function log(changes: Partial<RunLog>): RunLog {
  return { ...emptyLog('test', T0, { low: 5.5, high: 7 }, 0.5), ...changes };
}

describe('the scorecard of a run', () => {
  it('counts doses, seconds and millilitres', () => {
    const card = scorecard(
      log({
        doses: [
          { at: s(0), seconds: 2 },
          { at: s(300), seconds: 2 },
          { at: s(600), seconds: 3 },
        ],
        endMs: s(3600),
      }),
    );
    expect(card).toMatchObject({ doses: 3, secondsPumped: 7, ml: 3.5, hours: 1 });
    expect(scorecard(log({ flowMlPerSecond: null, doses: [{ at: s(0), seconds: 2 }] })).ml).toBeNull();
  });

  it('weighs the time in the band by how long each reading held', () => {
    const samples = [
      { at: s(0), truePh: 6, probePh: 6 },
      { at: s(100), truePh: 7.5, probePh: 7.5 },
      { at: s(400), truePh: 6.5, probePh: 6.5 },
    ];
    // In band 0–100 and 400–1000, out 100–400: 700 of 1000 s.
    expect(timeInBand({ samples, band: { low: 5.5, high: 7 }, endMs: s(1000) })).toBeCloseTo(0.7, 9);
    expect(timeInBand({ samples: [], band: { low: 5.5, high: 7 }, endMs: s(1000) })).toBe(0);
    const card = scorecard(log({ samples, endMs: s(1000) }));
    expect([card.truePhMin, card.truePhMax]).toEqual([6, 7.5]);
  });

  it('finds the most run time in any rolling window, not per calendar day', () => {
    const doses = [
      { at: s(0), seconds: 2 },
      { at: s(86_000), seconds: 5 },
      { at: s(86_400), seconds: 4 },
      { at: s(90_000), seconds: 1 },
    ];
    // 0 leaves the window at 86,400 s: the densest 24 h holds 5 + 4 + 1.
    expect(mostInWindow(doses, 86_400_000)).toBe(10);
    expect(mostInWindow([], 86_400_000)).toBe(0);
  });

  it('says when the lockout, interlock and limit first came, and the alerts', () => {
    const card = scorecard(
      log({
        decisions: [
          { at: s(0), activate: true, status: 'OK', reason: 'ok' },
          { at: s(60), activate: false, status: 'Blocked', reason: 'interlock' },
          { at: s(120), activate: false, status: 'Limit', reason: 'limit' },
          { at: s(6000), activate: false, status: 'Locked', reason: 'locked_out' },
        ],
        alerts: [
          { raisedAt: s(30), kind: 'high', severity: 'warning', sensorId: 1, actuatorId: null },
          { raisedAt: s(6000), kind: 'lockout', severity: 'critical', sensorId: null, actuatorId: 1 },
          { raisedAt: s(7200), kind: 'controller_offline', severity: 'critical', sensorId: null, actuatorId: 1 },
        ],
        controllerLastSeenAt: s(7080),
      }),
    );
    expect(card).toMatchObject({ interlockAt: 60, limitAt: 120, lockoutAt: 6000, alerts: 3, criticalAlerts: 2, offlineAlertAfter: 120 });
    expect(card.firstAlert).toEqual({ at: 30, kind: 'high', severity: 'warning' });
    const table = scorecardTable([card]).split('\n');
    expect(table).toHaveLength(3);
    expect(table[2]).toContain('| 1:40:00 | 0:01:00 | 0:02:00 | 3 (2) | high warning at 0:00:30 | 120.0 s |');
  });

  it('takes the lockout from its alert when no decision said so', () => {
    const card = scorecard(log({ alerts: [{ raisedAt: s(90), kind: 'lockout', severity: 'critical', sensorId: null, actuatorId: 1 }] }));
    expect(card.lockoutAt).toBe(90);
  });
});

describe('the scorecard in BENCHMARKS.md', () => {
  const doc = [
    '# Benchmarks',
    '',
    'intro',
    '',
    '## Current figures',
    '',
    'what these are',
    '',
    '### Ingest',
    '',
    'table',
    '',
    '# Log',
    '',
  ].join('\n');
  const section = (n: number) => `${SCORECARD_HEADING}\n\nrun ${n}\n`;

  it('goes first in the current figures, and a second run replaces it', () => {
    const once = withScorecardSection(doc, section(1));
    expect(once).toContain('what these are\n\n### Tank simulator scorecard\n\nrun 1\n\n### Ingest');
    const twice = withScorecardSection(once, section(2));
    expect(twice).not.toContain('run 1');
    expect(twice.split(SCORECARD_HEADING)).toHaveLength(2);
    expect(twice).toBe(withScorecardSection(doc, section(2)));
  });

  it('adds a current-figures part to a file without one', () => {
    expect(withScorecardSection('# Benchmarks\n', section(1))).toBe(
      '# Benchmarks\n\n## Current figures\n\n### Tank simulator scorecard\n\nrun 1\n',
    );
  });
});

describe('the command line', () => {
  it('takes the options of the issue', () => {
    const args = parseArgs([
      '--fault',
      'stuck-ph',
      '--prototype',
      '3',
      '--url',
      'http://pi:8000',
      '--token',
      't',
      '--speed',
      '60',
      '--hours=0.5',
      '--fast',
    ]);
    expect(args).toMatchObject({
      scenario: 'stuck-ph',
      prototypeId: 3,
      url: 'http://pi:8000',
      token: 't',
      speed: 60,
      hours: 0.5,
      fast: true,
      scorecard: false,
    });
    expect(parseArgs(['--ids', 'ph=4,acid_pump=2']).ids).toEqual({ ph: 4, acid_pump: 2 });
    expect(parseArgs([]).scenario).toBe('healthy');
  });

  it('refuses what it does not know, saying what', () => {
    expect(() => parseArgs(['--fault', 'flood'])).toThrow(/unknown fault "flood"/);
    expect(() => parseArgs(['--speed', '0'])).toThrow(UsageError);
    expect(() => parseArgs(['--prototype', '-1'])).toThrow(/--prototype needs an integer/);
    expect(() => parseArgs(['--hours'])).toThrow(/--hours needs a value/);
    expect(() => parseArgs(['--ids', 'pump=1'])).toThrow(/unknown name "pump"/);
    expect(() => parseArgs(['--url', 'ftp://x'])).toThrow(/--url/);
    expect(() => parseArgs(['--verbose'])).toThrow(/unknown option "--verbose"/);
  });
});
