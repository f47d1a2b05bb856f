import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { ApiError, type FieldErrors, fieldErrors } from '../api/errors';
import type { ActivationCondition, Actuator, ActuatorType, Sensor, SensorType } from '../api/types';
import { ConfirmDialog } from '../components/confirm';
import { CheckField, FormActions, FormError, NumberField, SelectField, TextField } from '../components/fields';
import { useDashboard } from '../context';
import { ACTUATOR_TYPE_LABELS, actuatorName, CONDITION_LABELS, SENSOR_TYPE_LABELS, sensorName } from '../domain/labels';
import { dependentsOf } from '../domain/dependents';
import { parseNumbers } from '../domain/numbers';
import type { Preferences } from '../state/prefs';

const entries = <K extends string>(labels: Record<K, string>) =>
  (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));
const SENSOR_TYPES = entries(SENSOR_TYPE_LABELS);
const ACTUATOR_TYPES = entries(ACTUATOR_TYPE_LABELS);
const CONDITIONS = entries({ ...CONDITION_LABELS, always: 'always (ignore the value)' } as Record<ActivationCondition, string>);

/** Display preferences, sensors and their thresholds, actuators and their rules. */
export function SettingsPage({ onPreferences }: { onPreferences: (change: Partial<Preferences>) => void }) {
  const { prototype, canModify } = useDashboard();
  const [sensors, setSensors] = useState<Sensor[] | null>(null);
  const [actuators, setActuators] = useState<Actuator[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [s, a] = await Promise.all([api.sensors(prototype.prototype_id), api.actuators(prototype.prototype_id)]);
      setSensors(s);
      setActuators(a);
    } catch (error) {
      setFailure((error as Error).message);
    }
  }, [prototype.prototype_id]);
  useEffect(() => void reload(), [reload]);

  return (
    <div class="settings">
      <DisplaySettings onPreferences={onPreferences} />
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
      <section aria-labelledby="actuator-settings">
        <h2 id="actuator-settings">Actuators</h2>
        <div class="forms">
          {sensors &&
            actuators?.map((actuator) => <ActuatorForm key={actuator.actuator_id} actuator={actuator} sensors={sensors} onSaved={reload} />)}
          {canModify && sensors && sensors.length > 0 && <ActuatorForm sensors={sensors} onSaved={reload} />}
        </div>
      </section>
      <section aria-labelledby="sensor-settings">
        <h2 id="sensor-settings">Sensors</h2>
        <p class="muted">Thresholds are in each sensor's own unit.</p>
        <div class="forms">
          {sensors?.map((sensor) => <SensorForm key={sensor.sensor_id} sensor={sensor} onSaved={reload} />)}
          {canModify && <SensorForm onSaved={reload} />}
        </div>
      </section>
    </div>
  );
}

function DisplaySettings({ onPreferences }: { onPreferences: (change: Partial<Preferences>) => void }) {
  const { prefs } = useDashboard();
  const none: FieldErrors = {};
  return (
    <section aria-labelledby="display-settings" class="card">
      <h2 id="display-settings">Display (this browser)</h2>
      <div class="grid">
        <SelectField
          label="Temperature"
          name="temperature"
          errors={none}
          value={prefs.temperature}
          options={[
            { value: '°C', label: 'Celsius (°C)' },
            { value: '°F', label: 'Fahrenheit (°F)' },
          ]}
          onValue={(temperature) => onPreferences({ temperature })}
        />
        <SelectField
          label="Conductivity (EC)"
          name="conductivity"
          errors={none}
          value={prefs.conductivity}
          options={[
            { value: 'mS/cm', label: 'mS/cm' },
            { value: 'µS/cm', label: 'µS/cm' },
          ]}
          onValue={(conductivity) => onPreferences({ conductivity })}
        />
        <SelectField
          label="Theme"
          name="theme"
          errors={none}
          value={prefs.theme}
          options={[
            { value: 'light', label: 'Light' },
            { value: 'dark', label: 'Dark' },
          ]}
          onValue={(theme) => onPreferences({ theme })}
        />
      </div>
    </section>
  );
}

/** Saving state shared by the forms: errors by field, a short confirmation, and a busy flag. */
function useSave() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setStatus('');
    try {
      await action();
      setErrors({});
      setStatus(done);
      return true;
    } catch (error) {
      setErrors(fieldErrors(error));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, status, busy, run };
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

function ActuatorForm({ actuator, sensors, onSaved }: { actuator?: Actuator; sensors: Sensor[]; onSaved: () => Promise<void> }) {
  const { canModify } = useDashboard();
  const [name, setName] = useState(actuator?.actuator_name ?? '');
  const [type, setType] = useState<ActuatorType>(actuator?.actuator_type ?? 'acid_pump');
  const [sensorId, setSensorId] = useState(actuator?.sensor_id ?? sensors[0]?.sensor_id ?? 0);
  const [condition, setCondition] = useState<ActivationCondition>(actuator?.activation_condition ?? 'low');
  const [numbers, setNumbers] = useState({
    condition_value: text(actuator?.condition_value),
    activation_period: text(actuator?.activation_period),
    activation_duration: text(actuator?.activation_duration),
  });
  const [enabled, setEnabled] = useState(actuator?.enabled ?? true);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { errors, setErrors, status, busy, run } = useSave();
  const disabled = !canModify || busy;
  const sensorOptions = sensors.map((s) => ({ value: s.sensor_id, label: sensorName(s) }));
  const setNumber = (key: keyof typeof numbers) => (value: string) => setNumbers({ ...numbers, [key]: value });

  const save = async (event: Event) => {
    event.preventDefault();
    const parsed = parseNumbers(numbers);
    if (Object.keys(parsed.errors).length > 0) return setErrors(parsed.errors as FieldErrors);
    const fields = {
      actuator_name: name.trim() === '' ? null : name.trim(),
      actuator_type: type,
      sensor_id: sensorId,
      activation_condition: condition,
      enabled,
      ...parsed.values,
    };
    const saved = await run(
      () => (actuator ? api.updateActuators([{ actuator_id: actuator.actuator_id, ...fields }]) : api.createActuator(fields)),
      actuator ? 'Saved.' : 'Added.',
    );
    if (saved && !actuator) {
      setName('');
      setNumbers({ condition_value: '', activation_period: '', activation_duration: '' });
    }
    if (saved) await onSaved();
  };

  const toggle = async () => {
    if (!actuator) return;
    const next = !actuator.enabled;
    if (await run(() => api.updateActuators([{ actuator_id: actuator.actuator_id, enabled: next }]), next ? 'Enabled.' : 'Disabled.')) {
      setEnabled(next);
      await onSaved();
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    if (!actuator) return;
    const removed = await run(() => api.deleteActuator(actuator.actuator_id), 'Deleted.');
    if (removed) await onSaved();
    else setErrors((current) => ({ _form: `Could not delete: ${current._form ?? 'the service refused'}` }));
  };

  const title = actuator ? actuatorName(actuator) : 'Add an actuator';
  return (
    <form class="card form" onSubmit={save} aria-label={title} data-actuator-form={actuator?.actuator_id ?? 'new'}>
      <h3>{title}</h3>
      <div class="grid">
        <TextField label="Name" name="actuator_name" errors={errors} value={name} onValue={setName} disabled={disabled} hint="Optional" />
        <SelectField label="Type" name="actuator_type" errors={errors} value={type} options={ACTUATOR_TYPES} onValue={setType} disabled={disabled} />
        <SelectField label="Sensor" name="sensor_id" errors={errors} value={sensorId} options={sensorOptions} onValue={setSensorId} disabled={disabled} />
        <SelectField label="Run when" name="activation_condition" errors={errors} value={condition} options={CONDITIONS} onValue={setCondition} disabled={disabled} />
        <NumberField label="Condition value" name="condition_value" errors={errors} value={numbers.condition_value} onValue={setNumber('condition_value')} disabled={disabled} />
        <NumberField label="Period (s)" name="activation_period" errors={errors} value={numbers.activation_period} onValue={setNumber('activation_period')} disabled={disabled} hint="Wait between runs" />
        <NumberField label="Duration (s)" name="activation_duration" errors={errors} value={numbers.activation_duration} onValue={setNumber('activation_duration')} disabled={disabled} hint="How long a run lasts" />
      </div>
      <CheckField label="Enabled" name="enabled" checked={enabled} onValue={setEnabled} disabled={disabled} />
      <FormError errors={errors} names={['_form']} />
      <FormActions submit={actuator ? 'Save' : 'Add actuator'} disabled={disabled} status={status}>
        {actuator && (
          <>
            <button type="button" class="ghost" disabled={disabled} onClick={toggle}>
              {actuator.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" class="ghost danger-text" disabled={disabled} onClick={() => setConfirmDelete(true)}>
              Delete
            </button>
          </>
        )}
      </FormActions>
      {actuator && (
        <ConfirmDialog
          open={confirmDelete}
          title={`Delete ${title}?`}
          confirmLabel="Delete"
          onConfirm={remove}
          onCancel={() => setConfirmDelete(false)}
        >
          <p>The pump controller polling this actuator will get “not found” from now on.</p>
        </ConfirmDialog>
      )}
    </form>
  );
}

const THRESHOLDS = ['threshold_critically_low', 'threshold_low', 'threshold_high', 'threshold_critically_high'] as const;
const THRESHOLD_LABELS = { threshold_critically_low: 'Critically low', threshold_low: 'Low', threshold_high: 'High', threshold_critically_high: 'Critically high' };

function SensorForm({ sensor, onSaved }: { sensor?: Sensor; onSaved: () => Promise<void> }) {
  const { canModify, prototype } = useDashboard();
  const [type, setType] = useState<SensorType>(sensor?.sensor_type ?? 'temperature');
  const [unit, setUnit] = useState(sensor?.sensor_unit ?? '');
  const [thresholds, setThresholds] = useState(() =>
    Object.fromEntries(THRESHOLDS.map((key) => [key, text(sensor?.[key])])) as Record<(typeof THRESHOLDS)[number], string>,
  );
  const { errors, setErrors, status, busy, run } = useSave();
  const disabled = !canModify || busy;
  /** The delete being confirmed: first the sensor alone, then, when the service refuses, what is below it. */
  const [deleting, setDeleting] = useState<{ dependents: string } | 'sensor' | null>(null);

  const save = async (event: Event) => {
    event.preventDefault();
    const parsed = parseNumbers(thresholds);
    if (Object.keys(parsed.errors).length > 0) return setErrors(parsed.errors as FieldErrors);
    const fields = { sensor_type: type, sensor_unit: unit, ...parsed.values };
    const saved = await run(
      () =>
        sensor
          ? api.updateSensors([{ sensor_id: sensor.sensor_id, ...fields }])
          : api.createSensor({ ...fields, prototype_id: prototype.prototype_id }),
      sensor ? 'Saved.' : 'Added.',
    );
    if (saved && !sensor) {
      setUnit('');
      setThresholds({ threshold_critically_low: '', threshold_low: '', threshold_high: '', threshold_critically_high: '' });
    }
    if (saved) await onSaved();
  };

  const remove = async () => {
    const cascade = deleting !== null && deleting !== 'sensor';
    setDeleting(null);
    if (!sensor) return;
    let refused: ApiError | null = null;
    const removed = await run(async () => {
      try {
        await api.deleteSensor(sensor.sensor_id, cascade);
      } catch (error) {
        if (!cascade && error instanceof ApiError && error.status === 409) refused = error;
        throw error;
      }
    }, 'Deleted.');
    if (removed) return onSaved();
    // Measurements or actuators are below it: say how many, and offer to delete them with it.
    if (refused) {
      setErrors({});
      setDeleting({ dependents: dependentsOf((refused as ApiError).message) });
    } else setErrors((current) => ({ _form: `Could not delete: ${current._form ?? 'the service refused'}` }));
  };

  const title = sensor ? sensorName(sensor) : 'Add a sensor';
  return (
    <form class="card form" onSubmit={save} aria-label={title} data-sensor-form={sensor?.sensor_id ?? 'new'}>
      <h3>{title}</h3>
      <div class="grid">
        <SelectField label="Type" name="sensor_type" errors={errors} value={type} options={SENSOR_TYPES} onValue={setType} disabled={disabled} />
        <TextField label="Unit" name="sensor_unit" errors={errors} value={unit} onValue={setUnit} disabled={disabled} hint="pH, mS/cm, Celsius…" />
      </div>
      <fieldset class={`thresholds${errors.thresholds ? ' has-error' : ''}`} data-field="thresholds">
        <legend>Thresholds</legend>
        <div class="grid four">
          {THRESHOLDS.map((key) => (
            <NumberField
              key={key}
              label={THRESHOLD_LABELS[key]}
              name={key}
              errors={errors}
              value={thresholds[key]}
              onValue={(value) => setThresholds({ ...thresholds, [key]: value })}
              disabled={disabled}
            />
          ))}
        </div>
        <FormError errors={errors} names={['thresholds']} />
      </fieldset>
      <FormError errors={errors} names={['_form']} />
      <FormActions submit={sensor ? 'Save' : 'Add sensor'} disabled={disabled} status={status}>
        {sensor && (
          <button type="button" class="ghost danger-text" disabled={disabled} onClick={() => setDeleting('sensor')}>
            Delete
          </button>
        )}
      </FormActions>
      {sensor && (
        <ConfirmDialog
          open={deleting !== null}
          title={deleting === 'sensor' || deleting === null ? `Delete ${title}?` : `${title} still has data`}
          confirmLabel={deleting === 'sensor' || deleting === null ? 'Delete' : 'Delete all of it'}
          onConfirm={remove}
          onCancel={() => setDeleting(null)}
        >
          {deleting === 'sensor' || deleting === null ? (
            <p>The sensor is removed; a device still posting to it will get “not found”.</p>
          ) : (
            <>
              <p class="dependents">It still has {deleting.dependents}.</p>
              <p>Delete all of it with the sensor? This cannot be undone.</p>
            </>
          )}
        </ConfirmDialog>
      )}
    </form>
  );
}

