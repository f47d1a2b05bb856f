/**
 * The largest values the dosing settings take (docs/safety.md, "Bounds"). Beyond them a setting
 * means nothing a grower could want, and the instants and products the service computes from it
 * (a period in milliseconds, a dose's volume, a day's millilitres) would leave the range where
 * every step of a millisecond or a millilitre still counts. Refused with 422, never clamped.
 */

/** Every setting measured in seconds: at most a year. */
export const MAX_SETTING_SECONDS = 31_536_000;

/** Every count of doses in a row that locks a pump out (`lockout_*`). */
export const MAX_LOCKOUT_COUNT = 1000;

/** A pump's flow, millilitres per second: a cubic metre a second is beyond any doser. */
export const MAX_FLOW_ML_PER_S = 1_000_000;

/**
 * Every volume setting, millilitres (a bottle, a day's limit): a thousand cubic metres. With the
 * flow and seconds bounds, a dose is at most 3.2e13 ml and any sum of them stays finite and exact
 * to far below a millilitre.
 */
export const MAX_VOLUME_ML = 1_000_000_000;
