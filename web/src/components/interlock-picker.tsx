import { useId } from 'preact/hooks';
import type { FieldErrors } from '../api/errors';
import type { Sensor } from '../api/types';
import { type InterlockRow, MAX_INTERLOCKS } from '../domain/interlocks';
import { sensorName } from '../domain/labels';
import { FormError } from './fields';

interface Props {
  rows: InterlockRow[];
  /** The prototype's sensors: what an interlock may watch. */
  sensors: Sensor[];
  errors: FieldErrors;
  disabled: boolean;
  onRows: (rows: InterlockRow[]) => void;
}

/**
 * Up to 8 sensors whose readings block the pump (docs/api.md §14): each with a lower and an upper
 * bound, either may be empty. The service's message for them shows under the list.
 */
export function InterlockPicker({ rows, sensors, errors, disabled, onRows }: Props) {
  const id = useId();
  const change = (index: number, patch: Partial<InterlockRow>) => onRows(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const add = () => onRows([...rows, { sensor_id: sensors[0]?.sensor_id ?? 0, block_below: '', block_above: '' }]);
  const label = (sensor: Sensor) => `${sensorName(sensor)} (${sensor.sensor_unit})`;
  return (
    <fieldset class={`interlocks${errors.interlocks ? ' has-error' : ''}`} data-field="interlocks">
      <legend>Interlocks</legend>
      <p class="muted hint">
        The pump is blocked while a sensor reads below or above its bounds, and while that sensor has no fresh, valid reading.
      </p>
      {rows.map((row, index) => {
        const n = index + 1;
        return (
          <div class="interlock" key={index} data-interlock={index}>
            <div class="field">
              <label for={`${id}-${index}-sensor`}>Interlock {n}: sensor</label>
              <select
                id={`${id}-${index}-sensor`}
                value={String(row.sensor_id)}
                disabled={disabled}
                onChange={(e) => change(index, { sensor_id: Number(e.currentTarget.value) })}
              >
                {!sensors.some((s) => s.sensor_id === row.sensor_id) && (
                  <option value={String(row.sensor_id)}>Sensor #{row.sensor_id}</option>
                )}
                {sensors.map((sensor) => (
                  <option key={sensor.sensor_id} value={String(sensor.sensor_id)}>
                    {label(sensor)}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for={`${id}-${index}-below`}>Block below</label>
              <input
                id={`${id}-${index}-below`}
                type="text"
                inputMode="decimal"
                value={row.block_below}
                disabled={disabled}
                onInput={(e) => change(index, { block_below: e.currentTarget.value })}
              />
            </div>
            <div class="field">
              <label for={`${id}-${index}-above`}>Block above</label>
              <input
                id={`${id}-${index}-above`}
                type="text"
                inputMode="decimal"
                value={row.block_above}
                disabled={disabled}
                onInput={(e) => change(index, { block_above: e.currentTarget.value })}
              />
            </div>
            <button
              type="button"
              class="ghost danger-text"
              disabled={disabled}
              aria-label={`Remove interlock ${n}`}
              onClick={() => onRows(rows.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </div>
        );
      })}
      {rows.length === 0 && <p class="muted">No interlock.</p>}
      <button type="button" class="ghost" disabled={disabled || rows.length >= MAX_INTERLOCKS || sensors.length === 0} onClick={add}>
        Add interlock
      </button>
      <FormError errors={errors} names={['interlocks']} />
    </fieldset>
  );
}
