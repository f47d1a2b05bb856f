/**
 * The reason a lockout states (docs/api.md §14), e.g. "20 doses in a row did not move pH down by
 * more than 0": what was dosed for, in the grower's words, so the one reading it knows what to check
 * (the bottle, the pump, the probe).
 */
import type { ActivationCondition } from '../domain/actuator.js';
import type { SensorType } from '../domain/sensor.js';

const QUANTITY: Partial<Record<SensorType, string>> = { ph: 'pH', ec: 'EC' };

/** "pH", "EC", "water level": how a reading of this type is named in a sentence. */
export const quantityName = (sensorType: SensorType): string => QUANTITY[sensorType] ?? sensorType.replaceAll('_', ' ');

function directionWords(condition: ActivationCondition, conditionValue: number): string {
  if (condition === 'high') return 'down';
  if (condition === 'low') return 'up';
  return `toward ${conditionValue}`;
}

export function lockoutReason(
  streak: number,
  sensorType: SensorType,
  condition: ActivationCondition,
  conditionValue: number,
  minResponse: number | null,
): string {
  const doses = streak === 1 ? '1 dose' : `${streak} doses in a row`;
  const by = minResponse === null ? "beyond the probe's noise" : `by more than ${minResponse}`;
  return `${doses} did not move ${quantityName(sensorType)} ${directionWords(condition, conditionValue)} ${by}`;
}

/** The reason of a lockout on doses that moved the reading the wrong way. */
export function reversedReason(streak: number, sensorType: SensorType): string {
  return (
    `${streak} doses in a row: ${quantityName(sensorType)} moves the wrong way after doses ` +
    '(check that the bottle holds the right solution and the tubes are not swapped)'
  );
}

const round = (value: number) => Number(value.toPrecision(3));

/** The reason of a lockout on unanswered doses that should, together, have moved the reading a long way. */
export function expectedEffectReason(streak: number, sensorType: SensorType, expected: number, distance: number): string {
  const doses = streak === 1 ? '1 dose' : `${streak} doses in a row`;
  return (
    `${doses} did not move ${quantityName(sensorType)}, though together they should have moved it by about ${round(expected)} ` +
    `(more than half the ${round(distance)} to the critical threshold): check the bottle, the pump and the probe`
  );
}

/** The reason (and the alert's text) of a hold on unusual consumption. */
export function unusualReason(ratio: number, usual: number, unit: 'ml' | 's', windowSeconds: number): string {
  const hours = round(windowSeconds / 3600);
  return (
    `Unusual consumption: ${round(ratio)}× the usual ${round(usual)} ${unit} per ${hours} h. ` +
    "Check the probe's calibration before unlocking: a drifting probe makes a pump dose ever more"
  );
}
