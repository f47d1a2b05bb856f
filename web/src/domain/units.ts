/**
 * Display units. Values are stored in the sensor's own unit; the dashboard converts what it shows
 * when the grower prefers another one. Only conversions that cannot lose meaning are offered.
 */
export type TemperatureUnit = '°C' | '°F';
export type ConductivityUnit = 'mS/cm' | 'µS/cm';

export interface UnitPreferences {
  temperature: TemperatureUnit;
  conductivity: ConductivityUnit;
}

export interface Display {
  unit: string;
  /** Stored value → shown value. */
  convert: (value: number) => number;
}

const CELSIUS = new Set(['c', '°c', 'celsius', 'degc', 'deg c']);
const FAHRENHEIT = new Set(['f', '°f', 'fahrenheit', 'degf']);
const MILLI = new Set(['ms/cm', 'millisiemens/cm']);
const MICRO = new Set(['µs/cm', 'μs/cm', 'us/cm', 'microsiemens/cm']);

const identity = (value: number) => value;

/** How a sensor whose stored unit is `storedUnit` is shown under the preferences. */
export function displayFor(storedUnit: string, prefs: UnitPreferences): Display {
  const unit = storedUnit.trim().toLowerCase();
  if (CELSIUS.has(unit)) {
    return prefs.temperature === '°F' ? { unit: '°F', convert: (c) => (c * 9) / 5 + 32 } : { unit: '°C', convert: identity };
  }
  if (FAHRENHEIT.has(unit)) {
    return prefs.temperature === '°C' ? { unit: '°C', convert: (f) => ((f - 32) * 5) / 9 } : { unit: '°F', convert: identity };
  }
  if (MILLI.has(unit)) {
    return prefs.conductivity === 'µS/cm' ? { unit: 'µS/cm', convert: (ms) => ms * 1000 } : { unit: 'mS/cm', convert: identity };
  }
  if (MICRO.has(unit)) {
    return prefs.conductivity === 'mS/cm' ? { unit: 'mS/cm', convert: (us) => us / 1000 } : { unit: 'µS/cm', convert: identity };
  }
  return { unit: storedUnit, convert: identity };
}

/** A number for people: a handful of significant digits, no trailing noise. */
export function formatValue(value: number): string {
  const abs = Math.abs(value);
  const digits = abs >= 1000 ? 0 : abs >= 100 ? 1 : 2;
  return value.toLocaleString(undefined, { maximumFractionDigits: digits });
}
