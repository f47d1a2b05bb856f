import { useEffect, useRef, useState } from 'preact/hooks';
import type { FieldErrors } from '../api/errors';
import type { Actuator, Sensor } from '../api/types';
import { optionalText, parseOptionalNumbers } from '../domain/numbers';
import { followStock, STOCK_SET_BY_REFILL, VOLUME_FIELDS, volumeChanges, volumeTexts, type VolumeTexts } from '../domain/volumes';
import { NumberField } from './fields';

/**
 * The settings of the grower's records (docs/api.md §15) inside the actuator and sensor forms:
 * a pump's flow, daily millilitre limit and bottle, a sensor's calibration reminder. Each hook
 * keeps its fields' text and gives what to send; each component draws the fields.
 */
export interface RecordFieldsState<T> {
  texts: T;
  /** Whether the form edits an existing one (whose bottle only a refill sets). */
  existing?: boolean;
  setTexts: (texts: T) => void;
  /** The fields to send, or the problems to show under them. */
  changes: () => { values: Record<string, number | null>; errors: Record<string, string> };
  /** Back to the empty form (after adding a new one). */
  reset: () => void;
}

export function useVolumeFields(actuator: Actuator | undefined): RecordFieldsState<VolumeTexts> {
  const [texts, setTexts] = useState(() => volumeTexts(actuator));
  /** The fields as the service last gave them. */
  const given = useRef(texts);
  useEffect(() => {
    const fresh = volumeTexts(actuator);
    setTexts((current) => followStock(current, given.current, fresh));
    given.current = fresh;
  }, [actuator?.stock_ml]);
  return {
    texts,
    existing: actuator !== undefined,
    setTexts,
    // The stock is sent only for a new pump: a refill sets an existing one's.
    changes: () => volumeChanges(texts, actuator && given.current) as ReturnType<RecordFieldsState<VolumeTexts>['changes']>,
    reset: () => setTexts(volumeTexts(undefined)),
  };
}

export function VolumeFields({
  state,
  errors,
  disabled,
}: {
  state: RecordFieldsState<VolumeTexts>;
  errors: FieldErrors;
  disabled: boolean;
}) {
  return (
    <fieldset class="volume-fields" data-field="volumes">
      <legend>Volumes and bottle</legend>
      <div class="grid">
        {VOLUME_FIELDS.map((field) => (
          <NumberField
            key={field.name}
            label={field.label}
            name={field.name}
            errors={errors}
            value={state.texts[field.name]}
            onValue={(value) => state.setTexts({ ...state.texts, [field.name]: value })}
            disabled={disabled || (field.name === 'stock_ml' && state.existing === true)}
            hint={field.name === 'stock_ml' && state.existing ? STOCK_SET_BY_REFILL : field.hint}
          />
        ))}
      </div>
    </fieldset>
  );
}

type IntervalTexts = { calibration_interval: string };

export function useCalibrationInterval(sensor: Sensor | undefined): RecordFieldsState<IntervalTexts> {
  const [texts, setTexts] = useState(() => ({ calibration_interval: optionalText(sensor?.calibration_interval) }));
  return {
    texts,
    setTexts,
    changes: () => parseOptionalNumbers(texts) as ReturnType<RecordFieldsState<IntervalTexts>['changes']>,
    reset: () => setTexts({ calibration_interval: '' }),
  };
}

export function CalibrationIntervalField({
  state,
  errors,
  disabled,
}: {
  state: RecordFieldsState<IntervalTexts>;
  errors: FieldErrors;
  disabled: boolean;
}) {
  return (
    <fieldset class="calibration-fields" data-field="calibration">
      <legend>Calibration</legend>
      <div class="grid four">
        <NumberField
          label="Calibrate every (days)"
          name="calibration_interval"
          errors={errors}
          value={state.texts.calibration_interval}
          onValue={(value) => state.setTexts({ calibration_interval: value })}
          disabled={disabled}
          hint="An alert when it is due; empty: no reminder"
        />
      </div>
    </fieldset>
  );
}
