import type { SensorType } from '../api/types';

export interface Thresholds {
  threshold_critically_low: number;
  threshold_low: number;
  threshold_high: number;
  threshold_critically_high: number;
}

export interface SensorPreset {
  unit: string;
  thresholds: Thresholds;
  /** In words, for the grower to accept or change. */
  note: string;
}

const t = (critically_low: number, low: number, high: number, critically_high: number): Thresholds => ({
  threshold_critically_low: critically_low,
  threshold_low: low,
  threshold_high: high,
  threshold_critically_high: critically_high,
});

/** EC of the nutrient solution by crop (mS/cm), from common hydroponic guides: a start, not a rule. */
export const EC_BY_CROP = [
  { id: 'leafy', label: 'Lettuce and leafy greens', thresholds: t(0.5, 0.8, 1.2, 1.8) },
  { id: 'herbs', label: 'Herbs (basil, mint)', thresholds: t(0.7, 1.0, 1.6, 2.2) },
  { id: 'strawberry', label: 'Strawberries', thresholds: t(0.7, 1.0, 1.5, 2.0) },
  { id: 'fruiting', label: 'Tomatoes, peppers, cucumbers', thresholds: t(1.5, 2.0, 3.5, 4.5) },
] as const;
export type CropId = (typeof EC_BY_CROP)[number]['id'];

/** A unit and thresholds a grower can accept for each kind of sensor. */
export const SENSOR_PRESETS: Record<SensorType, SensorPreset> = {
  ph: { unit: 'pH', thresholds: t(5.0, 5.5, 6.5, 7.0), note: 'most crops take up nutrients best between pH 5.5 and 6.5' },
  ec: { unit: 'mS/cm', thresholds: EC_BY_CROP[0].thresholds, note: 'depends on the crop: choose it below' },
  temperature: { unit: 'Celsius', thresholds: t(15, 18, 24, 28), note: 'nutrient solution: warm water holds little oxygen' },
  humidity: { unit: '%', thresholds: t(40, 50, 70, 85), note: 'air around the plants; above 85 % invites mould' },
  water_level: { unit: '%', thresholds: t(10, 25, 95, 100), note: 'tank fill level: low means top up before the pump runs dry' },
  boolean_water_level: { unit: 'on/off', thresholds: t(0.5, 0.5, 1, 1), note: 'a float switch: 1 water present, 0 dry' },
  oxygen: { unit: 'mg/L', thresholds: t(4, 6, 15, 20), note: 'dissolved oxygen: roots suffer below 5 mg/L' },
};

export function presetFor(type: SensorType, crop?: CropId): SensorPreset {
  const preset = SENSOR_PRESETS[type];
  if (type !== 'ec' || !crop) return preset;
  const chosen = EC_BY_CROP.find((c) => c.id === crop);
  return chosen ? { ...preset, thresholds: chosen.thresholds } : preset;
}

/** "5.5–6.5 ok; critical below 5 or above 7": a preset in words. */
export function describeThresholds(th: Thresholds, unit: string): string {
  return `${th.threshold_low}–${th.threshold_high} ${unit} ok; critical below ${th.threshold_critically_low} or above ${th.threshold_critically_high}`;
}
