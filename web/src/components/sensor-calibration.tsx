import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { Calibration, CalibrationFields } from '../api/records';
import type { Sensor } from '../api/types';
import { recordsApi } from '../api/records-endpoints';
import { useDashboard } from '../context';
import {
  bufferPresets,
  calibrationStatus,
  calibrationVerdict,
  fitLine,
  MAX_POINTS,
  offsetText,
  parsePoints,
  slopePercent,
  type Verdict,
} from '../domain/calibration';
import { sensorName } from '../domain/labels';
import { fromLocalInput } from '../domain/time';
import { FormError } from './fields';
import { Modal } from './modal';
import { When } from './when';

type Dates = Partial<CalibrationFields>;

const datesOf = (sensor: Sensor): Dates => ({
  calibration_interval: sensor.calibration_interval,
  calibrated_at: sensor.calibrated_at,
  calibration_due: sensor.calibration_due,
});

/**
 * A sensor card's calibration (docs/api.md §15): when it was last calibrated, when the next is
 * due, and *Record calibration*.
 */
export function SensorCalibration({ sensor, nowMs }: { sensor: Sensor; nowMs: number }) {
  const { prototype, canModify } = useDashboard();
  // What the service answered after a calibration recorded here, until the sensor itself says more.
  const [recorded, setRecorded] = useState<Dates | null>(null);
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => setRecorded(null), [sensor.calibrated_at, sensor.calibration_due, sensor.calibration_interval]);
  const status = calibrationStatus(recorded ?? datesOf(sensor), nowMs);
  const name = sensorName(sensor);

  const reread = async () => {
    const sensors = await api.sensors(prototype.prototype_id);
    const fresh = sensors.find((s) => s.sensor_id === sensor.sensor_id);
    if (fresh) setRecorded(datesOf(fresh));
  };
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };

  return (
    <div class={`calibration${status.overdue ? ' overdue' : ''}`} data-overdue={status.overdue ? 'true' : 'false'}>
      <p>
        <span class="calibration-last">{status.last.charAt(0).toUpperCase() + status.last.slice(1)}</span> ·{' '}
        <span class="calibration-due">{status.due}</span>
      </p>
      <button
        type="button"
        class="ghost"
        ref={opener}
        disabled={!canModify}
        onClick={() => setOpen(true)}
        aria-label={`Record calibration: ${name}`}
      >
        Record calibration
      </button>
      <Modal open={open} title={`Calibrate ${name}`} onClose={close} class="calibration-dialog">
        <CalibrationForm sensor={sensor} onRecorded={() => void reread().catch(() => {})} onClose={close} due={status.due} />
      </Modal>
    </div>
  );
}

interface Row {
  reference: string;
  reading: string;
}

function CalibrationForm({
  sensor,
  due,
  onRecorded,
  onClose,
}: {
  sensor: Sensor;
  due: string;
  onRecorded: () => void;
  onClose: () => void;
}) {
  const [rows, setRows] = useState<Row[]>(() => {
    const presets = bufferPresets(sensor.sensor_type, sensor.sensor_unit).slice(0, 2);
    return (presets.length > 0 ? presets : [Number.NaN, Number.NaN]).map((ref) => ({
      reference: Number.isNaN(ref) ? '' : String(ref),
      reading: '',
    }));
  });
  const [note, setNote] = useState('');
  /** Empty: now. A calibration made earlier (before the service was there, say) is recorded at its time. */
  const [when, setWhen] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Calibration | null>(null);
  const id = useId();
  // The previous calibration, to compare with: read when the form opens, left out when it cannot be.
  const [previous, setPrevious] = useState<Calibration | null>(null);
  useEffect(() => {
    recordsApi.calibrations(sensor.sensor_id, { limit: 1 }).then(
      ([last]) => setPrevious(last ?? null),
      () => setPrevious(null),
    );
  }, [sensor.sensor_id]);
  const parsed = parsePoints(rows);
  const fit = fitLine(parsed.points);
  const preview = fit && calibrationVerdict({ ...fit, points: parsed.points.length });
  const unit = sensor.sensor_unit;

  const setRow = (index: number, change: Partial<Row>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const addRow = () => {
    const next = bufferPresets(sensor.sensor_type, unit)[rows.length];
    setRows([...rows, { reference: next === undefined ? '' : String(next), reading: '' }]);
  };

  const send = async (event: Event) => {
    event.preventDefault();
    const rowErrors = Object.entries(parsed.errors);
    if (rowErrors.length > 0) return setErrors(Object.fromEntries(rowErrors.map(([i, message]) => [`row${i}`, message])));
    if (parsed.points.length === 0) return setErrors({ points: 'Enter at least one buffer and its reading' });
    setBusy(true);
    try {
      const answer = await recordsApi.recordCalibration(sensor.sensor_id, {
        points: parsed.points,
        note: note.trim() === '' ? undefined : note.trim(),
        calibrated_at: when ? new Date(fromLocalInput(when)).toISOString() : undefined,
      });
      setErrors({});
      setResult(answer);
      onRecorded();
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };

  if (result) return <CalibrationResult result={result} due={due} onClose={onClose} />;

  return (
    <form class="calibration-form" onSubmit={send} aria-label="Record calibration">
      {previous && <PreviousCalibration calibration={previous} />}
      <p class="muted">
        Rinse the probe, set it in each buffer, wait for the reading to settle, and write both down. Two or three buffers check its slope;
        one checks only its offset.
      </p>
      <table class="buffers">
        <caption class="visually-hidden">Buffer points</caption>
        <thead>
          <tr>
            <th scope="col">Buffer ({unit})</th>
            <th scope="col">Probe read</th>
            <th scope="col">
              <span class="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i} class={errors[`row${i}`] ? 'has-error' : undefined}>
              <td>
                <input
                  name={`reference_${i}`}
                  inputMode="decimal"
                  aria-label={`Buffer ${i + 1}: value`}
                  value={row.reference}
                  disabled={busy}
                  onInput={(e) => setRow(i, { reference: e.currentTarget.value })}
                />
              </td>
              <td>
                <input
                  name={`reading_${i}`}
                  inputMode="decimal"
                  aria-label={`Buffer ${i + 1}: probe read`}
                  value={row.reading}
                  disabled={busy}
                  onInput={(e) => setRow(i, { reading: e.currentTarget.value })}
                />
              </td>
              <td>
                {rows.length > 1 && (
                  <button
                    type="button"
                    class="ghost"
                    aria-label={`Remove buffer ${i + 1}`}
                    disabled={busy}
                    onClick={() => setRows(rows.filter((_, j) => j !== i))}
                  >
                    ×
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <FormError errors={errors} names={rows.map((_, i) => `row${i}`).concat(['points'])} />
      {rows.length < MAX_POINTS && (
        <button type="button" class="ghost" disabled={busy} onClick={addRow}>
          Add a buffer
        </button>
      )}
      <label class="field">
        <span>Note (optional)</span>
        <input
          name="note"
          value={note}
          disabled={busy}
          onInput={(e) => setNote(e.currentTarget.value)}
          placeholder="e.g. fresh buffers, probe cleaned"
        />
      </label>
      <div class={`field${errors.calibrated_at ? ' has-error' : ''}`} data-field="calibrated_at">
        <label for={`${id}-when`}>When (empty: now)</label>
        <input
          id={`${id}-when`}
          type="datetime-local"
          name="calibrated_at"
          value={when}
          disabled={busy}
          onInput={(e) => setWhen(e.currentTarget.value)}
        />
        {errors.calibrated_at && (
          <small class="field-error" role="alert">
            {errors.calibrated_at}
          </small>
        )}
      </div>
      <output class={`calibration-preview${preview ? ` tone-${preview.tone}` : ''}`} aria-live="polite">
        {preview ? (
          <>Preview: {preview.headline}</>
        ) : parsed.points.length > 1 ? (
          'Use buffers of different values: the slope needs two of them.'
        ) : (
          'Enter the readings to see the slope and offset.'
        )}
      </output>
      <FormError errors={errors} names={['_form', 'note']} />
      <div class="actions">
        <button type="button" class="ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          Record calibration
        </button>
      </div>
    </form>
  );
}

/** "Last time (24 Nov 2026, 21:57): slope 94.2 %, offset +0.44, accepted". */
function PreviousCalibration({ calibration }: { calibration: Calibration }) {
  const fit =
    calibration.points.length < 2
      ? `offset ${offsetText(calibration.offset)}`
      : `slope ${slopePercent(calibration.slope).toFixed(1)} %, offset ${offsetText(calibration.offset)}`;
  return (
    <p class="calibration-previous">
      Last time (<When at={calibration.calibrated_at} />
      ): {fit}, {calibration.accepted ? 'accepted' : 'not accepted'}.
    </p>
  );
}

/** The service's fit, what it says about the probe, and when the next calibration is due. */
function CalibrationResult({ result, due, onClose }: { result: Calibration; due: string; onClose: () => void }) {
  const verdict: Verdict = calibrationVerdict({ ...result, points: result.points.length });
  return (
    <div class={`calibration-result tone-${verdict.tone}`} data-accepted={String(result.accepted)}>
      <p class="verdict" role="status">
        <strong>{verdict.headline}</strong>
      </p>
      <p>{verdict.advice}</p>
      <dl class="facts">
        <dt>Slope</dt>
        <dd class="calibration-slope">{slopePercent(result.slope).toFixed(1)} %</dd>
        <dt>Offset</dt>
        <dd class="calibration-offset">{offsetText(result.offset)}</dd>
        <dt>Accepted</dt>
        <dd>{result.accepted ? 'yes' : 'no: the reminder stays'}</dd>
        <dt>Next</dt>
        <dd class="calibration-next">{due}</dd>
      </dl>
      <div class="actions">
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}
