import { describe, expect, it } from 'vitest';
import type { Actuator, Alert, Sensor } from '../src/api/types';
import {
  alertFigures,
  alertKindText,
  alertSubject,
  alertTank,
  applyAlertChange,
  criticalFirst,
  nextBefore,
  notificationText,
} from '../src/domain/alerts';

const alert = (alert_id: number, change: Partial<Alert> = {}): Alert => ({
  alert_id,
  sensor_id: 1,
  actuator_id: null,
  prototype_id: 0,
  kind: 'high',
  severity: 'warning',
  state: 'active',
  raised_at: '2026-11-24T06:00:00.000Z',
  cleared_at: null,
  acknowledged_at: null,
  acknowledged_by: null,
  value: 8,
  peak: 8,
  last_value: 8,
  ...change,
});
const active = (a: Alert) => a.state === 'active';

describe('applyAlertChange', () => {
  it('puts a raised alert in its place, newest first', () => {
    expect(applyAlertChange([alert(5), alert(2)], alert(3), active).map((a) => a.alert_id)).toEqual([5, 3, 2]);
    expect(applyAlertChange([alert(5)], alert(9), active).map((a) => a.alert_id)).toEqual([9, 5]);
    expect(applyAlertChange([], alert(1), active).map((a) => a.alert_id)).toEqual([1]);
  });

  it('replaces an escalated or acknowledged alert', () => {
    const next = applyAlertChange([alert(5), alert(2)], alert(2, { severity: 'critical' }), active);
    expect(next.map((a) => [a.alert_id, a.severity])).toEqual([
      [5, 'warning'],
      [2, 'critical'],
    ]);
  });

  it('drops a cleared alert from a list of active ones, and keeps it in a list of all', () => {
    const cleared = alert(2, { state: 'cleared', cleared_at: '2026-11-24T06:05:00.000Z' });
    expect(applyAlertChange([alert(5), alert(2)], cleared, active).map((a) => a.alert_id)).toEqual([5]);
    expect(applyAlertChange([alert(5), alert(2)], cleared, () => true)[1].state).toBe('cleared');
  });
});

describe('alertKindText', () => {
  it('says what the alert is about', () => {
    expect(alertKindText({ kind: 'high', severity: 'critical' })).toBe('critically high');
    expect(alertKindText({ kind: 'low', severity: 'warning' })).toBe('low');
    expect(alertKindText({ kind: 'stale', severity: 'warning' })).toBe('no recent reading');
  });

  it("says the records' alerts (§15) in words", () => {
    expect(alertKindText({ kind: 'stock_low', severity: 'warning' })).toBe('bottle running low: refill it');
    expect(alertKindText({ kind: 'calibration_due', severity: 'warning' })).toBe('calibration due');
  });
});

describe('alertFigures', () => {
  it('shows the readings of a sensor alert that has them', () => {
    expect(alertFigures({ kind: 'high', value: 7.2 })).toBe('readings');
    expect(alertFigures({ kind: 'low', value: 0 })).toBe('readings');
  });

  it('shows the stock left of a bottle running low', () => {
    expect(alertFigures({ kind: 'stock_low', value: 80 })).toBe('stock');
  });

  it('shows nothing where nothing was measured', () => {
    expect(alertFigures({ kind: 'stale', value: 7 })).toBeNull();
    expect(alertFigures({ kind: 'calibration_due', value: null })).toBeNull();
    expect(alertFigures({ kind: 'lockout', value: null })).toBeNull();
  });
});

describe('nextBefore', () => {
  it('pages on from the oldest alert shown while pages are full', () => {
    expect(nextBefore([alert(9), alert(4)], 2)).toBe(4);
    expect(nextBefore([alert(9)], 2)).toBeUndefined();
  });
});

describe('active alerts in the title and notifications', () => {
  it('puts the count of active alerts before the name', async () => {
    const { pageTitle } = await import('../src/domain/alerts');
    expect(pageTitle(0)).toBe('sensorhub');
    expect(pageTitle(2)).toBe('(2) sensorhub');
  });

  it('notifies of a critical alert when raised or escalated, not of warnings, clears or acknowledgements', async () => {
    const { notifiesOf } = await import('../src/domain/alerts');
    const critical = { severity: 'critical', state: 'active' } as const;
    expect(notifiesOf({ event: 'raised', alert: critical })).toBe(true);
    expect(notifiesOf({ event: 'escalated', alert: critical })).toBe(true);
    expect(notifiesOf({ event: 'raised', alert: { severity: 'warning', state: 'active' } })).toBe(false);
    expect(notifiesOf({ event: 'acknowledged', alert: critical })).toBe(false);
    expect(notifiesOf({ event: 'cleared', alert: { severity: 'critical', state: 'cleared' } })).toBe(false);
  });
});

describe('alertSubject', () => {
  const sensors = [{ sensor_id: 2, sensor_type: 'ph', sensor_name: 'Tank pH' }] as unknown as Sensor[];
  const actuators = [{ actuator_id: 5, actuator_type: 'acid_pump', actuator_name: null }] as unknown as Actuator[];

  it("names an alert by its sensor's name, else its actuator's", () => {
    expect(alertSubject({ sensor_id: 2, actuator_id: null }, sensors, actuators)).toBe('Tank pH');
    expect(alertSubject({ sensor_id: null, actuator_id: 5 }, sensors, actuators)).toBe('Acid pump #5');
  });

  it('falls back to the id only for what the page does not know, and to the service for its own', () => {
    expect(alertSubject({ sensor_id: 9, actuator_id: null }, sensors, actuators)).toBe('Sensor #9');
    expect(alertSubject({ sensor_id: null, actuator_id: 8 }, sensors)).toBe('Actuator #8');
    expect(alertSubject({ sensor_id: null, actuator_id: null }, sensors, actuators)).toBe('Service');
  });
});

describe('every alert, every tank', () => {
  it('puts critical alerts first, each group newest first', () => {
    const list = [alert(9), alert(8, { severity: 'critical' }), alert(3), alert(2, { severity: 'critical' })];
    expect(criticalFirst(list).map((a) => a.alert_id)).toEqual([8, 2, 9, 3]);
    expect(criticalFirst([])).toEqual([]);
  });

  it('names the tank of an alert, an unknown tank by its id, none for the service', () => {
    const tanks = [{ prototype_id: 0, prototype_name: 'Lettuce NFT' }];
    expect(alertTank(alert(1), tanks)).toBe('Lettuce NFT');
    expect(alertTank(alert(1, { prototype_id: 7 }), tanks)).toBe('Tank #7');
    expect(alertTank(alert(1, { prototype_id: null }), tanks)).toBeNull();
  });

  it('names the tank and the pump in a notification', () => {
    const lockout = alert(1, { kind: 'lockout', severity: 'critical', sensor_id: null, actuator_id: 4, value: null, last_value: null });
    expect(notificationText(lockout, 'Lettuce NFT', 'Acid pump #1')).toEqual({
      title: 'Critical: Lettuce NFT: Acid pump #1, lockout',
      body: 'Lettuce NFT: Acid pump #1 — lockout',
    });
    expect(notificationText(alert(2, { severity: 'critical', last_value: 9 }), null, 'Service').body).toBe(
      'Service — critically high, value 9',
    );
  });
});
