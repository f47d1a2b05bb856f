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
  minResponse: number,
): string {
  const doses = streak === 1 ? '1 dose' : `${streak} doses in a row`;
  return `${doses} did not move ${quantityName(sensorType)} ${directionWords(condition, conditionValue)} by more than ${minResponse}`;
}
