import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { Sensor } from '../api/types';
import { ConfirmDialog } from '../components/confirm';
import { CheckField, FormActions, FormError, NumberField } from '../components/fields';
import { keepFocus } from '../components/focus';
import { useDashboard } from '../context';
import { sensorName } from '../domain/labels';
import { zoneLabel } from '../domain/local-time';
import { parseNumbers } from '../domain/numbers';
import { EXPORT_PRESETS, fromLocalInput, toLocalInput } from '../domain/time';

/** CSV export with filters; demo data for a fresh installation, folded away under Advanced. */
export function DataPage() {
  const { prototype } = useDashboard();
  const [sensors, setSensors] = useState<Sensor[]>([]);
  useEffect(() => {
    api.sensors(prototype.prototype_id).then(setSensors, () => setSensors([]));
  }, [prototype.prototype_id]);
  return (
    <div class="data">
      <ExportForm sensors={sensors} />
      <details class="card advanced" data-section="advanced">
        <summary>
          <h2 id="advanced-heading">Advanced</h2>
          <span class="muted"> synthetic data for demos</span>
        </summary>
        <GeneratorForm />
      </details>
    </div>
  );
}

function ExportForm({ sensors }: { sensors: Sensor[] }) {
  const { prototype } = useDashboard();
  const [chosen, setChosen] = useState<number[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const download = async (event: Event) => {
    event.preventDefault();
    const giveFocusBack = keepFocus();
    setBusy(true);
    setStatus('');
    try {
      // No sensor ticked: the whole prototype. Times are the browser's local time.
      const blob = await api.exportCsv({
        prototype_id: prototype.prototype_id,
        sensor_id: chosen.length > 0 ? chosen : undefined,
        start_time: from ? new Date(fromLocalInput(from)).toISOString() : undefined,
        end_time: to ? new Date(fromLocalInput(to)).toISOString() : undefined,
      });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${prototype.prototype_name.replace(/[^\w.-]+/g, '_')}_measurements.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setErrors({});
      setStatus(`Exported ${(blob.size / 1024).toFixed(1)} KB.`);
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
      giveFocusBack();
    }
  };

  return (
    <form class="card form" onSubmit={download} aria-labelledby="export-heading">
      <h2 id="export-heading">Export CSV</h2>
      <p class="muted">Every measurement of {prototype.prototype_name}, or only the sensors ticked, within the dates given.</p>
      <fieldset>
        <legend>Sensors</legend>
        {sensors.map((sensor) => (
          <CheckField
            key={sensor.sensor_id}
            label={sensorName(sensor)}
            name={`sensor-${sensor.sensor_id}`}
            checked={chosen.includes(sensor.sensor_id)}
            onValue={(on) => setChosen(on ? [...chosen, sensor.sensor_id] : chosen.filter((id) => id !== sensor.sensor_id))}
          />
        ))}
      </fieldset>
      <div class="export-presets" role="group" aria-label="Time range">
        {EXPORT_PRESETS.map((preset) => (
          <button
            key={preset.id}
            type="button"
            class="ghost"
            onClick={() => {
              setFrom(preset.ms === null ? '' : toLocalInput(Date.now() - preset.ms));
              setTo('');
            }}
          >
            {preset.label}
          </button>
        ))}
      </div>
      <div class="grid">
        <div class="field" data-field="start_time">
          <label for="export-from">From (optional)</label>
          <input id="export-from" type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          {errors.start_time && (
            <small class="field-error" role="alert">
              {errors.start_time}
            </small>
          )}
        </div>
        <div class="field" data-field="end_time">
          <label for="export-to">To (optional)</label>
          <input id="export-to" type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          {errors.end_time && (
            <small class="field-error" role="alert">
              {errors.end_time}
            </small>
          )}
        </div>
      </div>
      <p class="muted hint">From and To are in this browser's time ({zoneLabel(Date.now())}); the file's times are UTC (ISO 8601).</p>
      <FormError errors={errors} names={['_form', 'sensor_id', 'prototype_id']} />
      <FormActions submit={busy ? 'Exporting…' : 'Download CSV'} disabled={busy} status={status} />
    </form>
  );
}

function GeneratorForm() {
  const { canModify, prototype } = useDashboard();
  const [count, setCount] = useState('5000');
  // Adding is the safe default: replacing deletes the tank's stored measurements (and asks first).
  const [replace, setReplace] = useState(false);
  const [asking, setAsking] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  const generate = async () => {
    setAsking(false);
    const parsed = parseNumbers({ nb_measurements: count });
    if (parsed.errors.nb_measurements) return setErrors(parsed.errors);
    const giveFocusBack = keepFocus();
    setBusy(true);
    setStatus('');
    try {
      // The tank on screen only: the service refuses while one of its pumps is enabled.
      const outcome = await api.generate({ nb_measurements: parsed.values.nb_measurements, replace, prototype_id: prototype.prototype_id });
      setErrors({});
      setStatus(`Generated ${outcome.generated} measurements${outcome.deleted ? `, deleted ${outcome.deleted}` : ''}.`);
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
      giveFocusBack();
    }
  };

  const submit = (event: Event) => {
    event.preventDefault();
    // Replacing deletes every measurement of the tank's sensors: ask first.
    if (replace) setAsking(true);
    else void generate();
  };

  return (
    <form class="form" onSubmit={submit} aria-labelledby="generator-heading">
      <h3 id="generator-heading">Synthetic data</h3>
      <p class="muted">
        Plausible random readings for every sensor of {prototype.prototype_name} over the last year, day and hour: for demos and trying the
        dashboard. Refused while a pump of this tank is enabled.
      </p>
      <div class="grid">
        <NumberField
          label="Measurements"
          name="nb_measurements"
          errors={errors}
          value={count}
          onValue={setCount}
          disabled={!canModify || busy}
          hint="Shared among the tank's sensors"
        />
      </div>
      <CheckField
        label="Replace this tank's measurements"
        name="replace"
        checked={replace}
        onValue={setReplace}
        disabled={!canModify || busy}
      />
      <FormError errors={errors} names={['_form', 'replace', 'prototype_id']} />
      <FormActions submit={busy ? 'Generating…' : 'Generate'} disabled={!canModify || busy} status={status} />
      <ConfirmDialog
        open={asking}
        title="Delete and regenerate this tank's data?"
        confirmLabel="Delete and generate"
        onConfirm={generate}
        onCancel={() => setAsking(false)}
      >
        <p>
          Every stored measurement of the sensors of {prototype.prototype_name} will be deleted and replaced by synthetic data. This cannot
          be undone.
        </p>
      </ConfirmDialog>
    </form>
  );
}
