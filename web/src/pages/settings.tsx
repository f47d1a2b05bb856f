import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { type FieldErrors, fieldErrors } from '../api/errors';
import type { ActivationCondition, Actuator, ActuatorType, Sensor, SensorType } from '../api/types';
import { CascadeDeleteDialog, useCascadeDelete } from '../components/cascade-delete';
import { ConfirmDialog } from '../components/confirm';
import { reveal, type Section, SectionLinks, SettingsItem, SettingsSection } from '../components/sections';
import { TankSettings } from '../components/tank-settings';
import { CheckField, FormActions, FormError, NumberField, SelectField, TextField } from '../components/fields';
import { InterlockPicker } from '../components/interlock-picker';
import { CalibrationIntervalField, useCalibrationInterval, useVolumeFields, VolumeFields } from '../components/record-fields';
import { useSave } from '../components/use-save';
import { defaultCondition } from '../domain/dosing';
import { interlockRows, parseInterlocks } from '../domain/interlocks';
import { useDashboard } from '../context';
import {
  ACTUATOR_TYPE_LABELS,
  actuatorName,
  CONDITION_LABELS,
  FORM_ACTUATOR_TYPES,
  SENSOR_TYPE_LABELS,
  sensorName,
} from '../domain/labels';
import { optionalText, parseNumbers, parseOptionalNumbers } from '../domain/numbers';
import { type CropId, describeThresholds, EC_BY_CROP, presetFor, type SensorPreset, type Thresholds } from '../domain/presets';
import type { Preferences } from '../state/prefs';

const entries = <K extends string>(labels: Record<K, string>) =>
  (Object.keys(labels) as K[]).map((value) => ({ value, label: labels[value] }));
const SENSOR_TYPES = entries(SENSOR_TYPE_LABELS);
const ALL_ACTUATOR_TYPES = entries(ACTUATOR_TYPE_LABELS);
/** The pump types, and the actuator's own type when it is another (set up through the API): kept as it is. */
const actuatorTypes = (actuator?: Actuator) =>
  ALL_ACTUATOR_TYPES.filter((t) => FORM_ACTUATOR_TYPES.includes(t.value) || t.value === actuator?.actuator_type);
// A schedule cannot be set up in this form yet: it offers the conditions it can configure.
const ALL_CONDITIONS = entries({ ...CONDITION_LABELS, always: 'always (ignore the value)' } as Record<ActivationCondition, string>);
const conditions = (actuator?: Actuator) =>
  ALL_CONDITIONS.filter((c) => c.value !== 'schedule' || actuator?.activation_condition === 'schedule');

/** On a phone each sensor and actuator starts folded: the page is a list to choose from, not every field at once. */
const PHONE_QUERY = '(max-width: 600px)';

/** Where a link to a sensor takes the grower: its thresholds, what most visits here are for. */
const sensorTarget = (id: number | 'new') => (id === 'new' ? 'sensor-new' : `sensor-${id}-thresholds`);
const actuatorTarget = (id: number | 'new') => `actuator-${id}`;

/** "pH: 4–7 pH ok; critical below 0 or above 10": a folded sensor in one line. */
const sensorSummary = (sensor: Sensor) => `${SENSOR_TYPE_LABELS[sensor.sensor_type]}: ${describeThresholds(sensor, sensor.sensor_unit)}`;

/** "pH #2, value above 6.5 · disabled": a folded actuator in one line. */
function actuatorSummary(actuator: Actuator, sensors: Sensor[]): string {
  const sensor = sensors.find((s) => s.sensor_id === actuator.sensor_id);
  const rule =
    actuator.activation_condition === 'always' || actuator.activation_condition === 'schedule'
      ? CONDITION_LABELS[actuator.activation_condition]
      : `${CONDITION_LABELS[actuator.activation_condition]} ${actuator.condition_value}`;
  return `${sensor ? sensorName(sensor) : `sensor ${actuator.sensor_id}`}, ${rule} · ${actuator.enabled ? 'enabled' : 'disabled'}`;
}

/** The tank, its sensors and their thresholds, the actuators that follow them, display preferences. */
export function SettingsPage({ onPreferences }: { onPreferences: (change: Partial<Preferences>) => void }) {
  const { prototype, canModify } = useDashboard();
  const [sensors, setSensors] = useState<Sensor[] | null>(null);
  const [actuators, setActuators] = useState<Actuator[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [folded] = useState(() => window.matchMedia?.(PHONE_QUERY).matches ?? false);

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

  const addSensor = () => {
    reveal(sensorTarget('new'));
    document.querySelector<HTMLElement>('[data-sensor-form="new"] select, [data-sensor-form="new"] input')?.focus();
  };
  const hasSensors = sensors !== null && sensors.length > 0;
  const sections: Section[] = [
    { id: 'tank-settings', title: 'Tank' },
    {
      id: 'sensor-settings',
      title: 'Sensors',
      items: [
        ...(sensors ?? []).map((s) => ({ id: sensorTarget(s.sensor_id), title: sensorName(s), hint: 'thresholds' })),
        ...(canModify && sensors ? [{ id: sensorTarget('new'), title: 'Add a sensor' }] : []),
      ],
    },
    {
      id: 'actuator-settings',
      title: 'Actuators',
      items: [
        ...(actuators ?? []).map((a) => ({ id: actuatorTarget(a.actuator_id), title: actuatorName(a) })),
        ...(canModify && hasSensors ? [{ id: actuatorTarget('new'), title: 'Add an actuator' }] : []),
      ],
    },
    { id: 'display-settings', title: 'Display' },
  ];

  return (
    <div class="settings">
      <SectionLinks sections={sections} />
      {failure && (
        <p class="error" role="alert">
          {failure}
        </p>
      )}
      <SettingsSection id="tank-settings" title="Tank">
        <TankSettings />
      </SettingsSection>
      <SettingsSection id="sensor-settings" title="Sensors">
        {sensors && sensors.length === 0 ? (
          <p class="empty-hint">This tank has no sensor yet: add the first one below, then connect its device.</p>
        ) : (
          <p class="muted">Thresholds are in each sensor's own unit.</p>
        )}
        <div class="forms">
          {sensors?.map((sensor) => (
            <SettingsItem
              key={sensor.sensor_id}
              id={`sensor-${sensor.sensor_id}`}
              title={sensorName(sensor)}
              summary={sensorSummary(sensor)}
              open={!folded}
            >
              <SensorForm sensor={sensor} onSaved={reload} />
            </SettingsItem>
          ))}
          {canModify && sensors && (
            // An empty tank's first sensor is what the page is for: open.
            <SettingsItem key="new" id={sensorTarget('new')} title="Add a sensor" open={!folded || !hasSensors}>
              <SensorForm onSaved={reload} />
            </SettingsItem>
          )}
        </div>
      </SettingsSection>
      <SettingsSection id="actuator-settings" title="Actuators">
        {sensors && !hasSensors ? (
          <p class="empty-hint">
            A pump follows a sensor: add a sensor first.{' '}
            {canModify && (
              <button type="button" class="ghost" onClick={addSensor}>
                Add a sensor
              </button>
            )}
          </p>
        ) : (
          <div class="forms">
            {sensors &&
              actuators?.map((actuator) => (
                <SettingsItem
                  key={actuator.actuator_id}
                  id={actuatorTarget(actuator.actuator_id)}
                  title={actuatorName(actuator)}
                  summary={actuatorSummary(actuator, sensors)}
                  open={!folded}
                >
                  <ActuatorForm actuator={actuator} sensors={sensors} onSaved={reload} />
                </SettingsItem>
              ))}
            {canModify && sensors && hasSensors && (
              <SettingsItem key="new" id={actuatorTarget('new')} title="Add an actuator" open={!folded || actuators?.length === 0}>
                <ActuatorForm sensors={sensors} onSaved={reload} />
              </SettingsItem>
            )}
          </div>
        )}
      </SettingsSection>
      <SettingsSection id="display-settings" title="Display (this browser)">
        <DisplaySettings onPreferences={onPreferences} />
      </SettingsSection>
    </div>
  );
}

function DisplaySettings({ onPreferences }: { onPreferences: (change: Partial<Preferences>) => void }) {
  const { prefs } = useDashboard();
  const none: FieldErrors = {};
  return (
    <div class="card">
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
    </div>
  );
}

const text = (n: number | undefined) => (n === undefined ? '' : String(n));

/** The actuator's safety settings that may be empty (docs/api.md §14): empty is null, the service's "no limit" or "off". */
const LIMIT_FIELDS = [
  { name: 'max_doses_per_hour', label: 'Max doses per hour', hint: 'In any 60 minutes; empty: no limit' },
  { name: 'max_seconds_per_day', label: 'Max run time per day (s)', hint: 'In any 24 h; empty: no limit' },
  { name: 'response_delay', label: 'Response delay (s)', hint: 'Mixing time before a dose is judged; empty: the period' },
  {
    name: 'min_response',
    label: 'Minimum response',
    hint: "How far a dose must move the reading to count as answered; empty: automatic, from the probe's own noise",
  },
  { name: 'lockout_after', label: 'Lock out after', hint: 'Unanswered doses in a row; empty: never' },
  {
    name: 'lockout_reversed_after',
    label: 'Wrong-way doses before lockout',
    hint: 'Doses in a row moving the reading the wrong way; empty: never',
  },
  { name: 'unusual_factor', label: 'Unusual consumption factor', hint: 'Held above this many times the usual dosing; empty: off' },
  { name: 'controller_timeout', label: 'Controller timeout (s)', hint: 'Offline alert after this long unpolled; empty: off' },
] as const;
type LimitName = (typeof LIMIT_FIELDS)[number]['name'];

/** A new actuator starts with the service's defaults: no limits, automatic response, lockout after 20, 3 reversed, factor 2. */
function actuatorLimitTexts(actuator: Actuator | undefined): Record<LimitName, string> {
  return {
    max_doses_per_hour: optionalText(actuator?.max_doses_per_hour),
    max_seconds_per_day: optionalText(actuator?.max_seconds_per_day),
    response_delay: optionalText(actuator?.response_delay),
    min_response: optionalText(actuator?.min_response),
    lockout_after: actuator ? optionalText(actuator.lockout_after) : '20',
    lockout_reversed_after: actuator ? optionalText(actuator.lockout_reversed_after) : '3',
    unusual_factor: actuator ? optionalText(actuator.unusual_factor) : '2',
    controller_timeout: optionalText(actuator?.controller_timeout),
  };
}

/** A sensor's trust settings (docs/api.md §14), each empty for the service's default. */
const TRUST_FIELDS = [
  { name: 'valid_min', label: 'Valid from', hint: "Readings below are invalid; empty: the type's default" },
  { name: 'valid_max', label: 'Valid up to', hint: "Readings above are invalid; empty: the type's default" },
  { name: 'stale_after', label: 'Stale after (s)', hint: 'Too old to dose on; empty: the service default' },
  { name: 'stuck_after', label: 'Stuck after (s)', hint: 'Same value this long counts as stuck; empty: off' },
] as const;
type TrustName = (typeof TRUST_FIELDS)[number]['name'];

const trustTexts = (sensor: Sensor | undefined): Record<TrustName, string> => ({
  valid_min: optionalText(sensor?.valid_min),
  valid_max: optionalText(sensor?.valid_max),
  stale_after: optionalText(sensor?.stale_after),
  stuck_after: optionalText(sensor?.stuck_after),
});

function ActuatorForm({ actuator, sensors, onSaved }: { actuator?: Actuator; sensors: Sensor[]; onSaved: () => Promise<void> }) {
  const { canModify } = useDashboard();
  const [name, setName] = useState(actuator?.actuator_name ?? '');
  const [type, setType] = useState<ActuatorType>(actuator?.actuator_type ?? 'acid_pump');
  const [sensorId, setSensorId] = useState(actuator?.sensor_id ?? sensors[0]?.sensor_id ?? 0);
  const [condition, setCondition] = useState<ActivationCondition>(actuator?.activation_condition ?? defaultCondition('acid_pump'));
  /** A new pump's condition follows its type until the grower picks one. */
  const [conditionPicked, setConditionPicked] = useState(actuator !== undefined);
  const chooseType = (next: ActuatorType) => {
    setType(next);
    if (!conditionPicked) setCondition(defaultCondition(next));
  };
  const [numbers, setNumbers] = useState({
    condition_value: text(actuator?.condition_value),
    activation_period: text(actuator?.activation_period),
    activation_duration: text(actuator?.activation_duration),
  });
  const [limits, setLimits] = useState(() => actuatorLimitTexts(actuator));
  const [interlocks, setInterlocks] = useState(() => interlockRows(actuator?.interlocks ?? []));
  const volumes = useVolumeFields(actuator);
  const [enabled, setEnabled] = useState(actuator?.enabled ?? true);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { errors, setErrors, status, busy, run } = useSave();
  const disabled = !canModify || busy;
  const sensorOptions = sensors.map((s) => ({ value: s.sensor_id, label: sensorName(s) }));
  const setNumber = (key: keyof typeof numbers) => (value: string) => setNumbers({ ...numbers, [key]: value });

  const setLimit = (key: keyof typeof limits) => (value: string) => setLimits({ ...limits, [key]: value });

  const save = async (event: Event) => {
    event.preventDefault();
    const parsed = parseNumbers(numbers);
    const optional = parseOptionalNumbers(limits);
    const locks = parseInterlocks(interlocks);
    const volume = volumes.changes();
    const problems = { ...parsed.errors, ...optional.errors, ...volume.errors, ...(locks.error ? { interlocks: locks.error } : {}) };
    if (Object.keys(problems).length > 0) return setErrors(problems as FieldErrors);
    const fields = {
      actuator_name: name.trim() === '' ? null : name.trim(),
      actuator_type: type,
      sensor_id: sensorId,
      activation_condition: condition,
      enabled,
      ...parsed.values,
      ...optional.values,
      ...volume.values,
      interlocks: locks.interlocks,
    };
    const saved = await run(
      () => (actuator ? api.updateActuators([{ actuator_id: actuator.actuator_id, ...fields }]) : api.createActuator(fields)),
      actuator ? 'Saved.' : 'Added.',
    );
    if (saved && !actuator) {
      setName('');
      setConditionPicked(false);
      setCondition(defaultCondition(type));
      setNumbers({ condition_value: '', activation_period: '', activation_duration: '' });
      setLimits(actuatorLimitTexts(undefined));
      setInterlocks([]);
      volumes.reset();
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
    <form class="form" onSubmit={save} aria-label={title} data-actuator-form={actuator?.actuator_id ?? 'new'}>
      <div class="grid">
        <TextField label="Name" name="actuator_name" errors={errors} value={name} onValue={setName} disabled={disabled} hint="Optional" />
        <SelectField
          label="Type"
          name="actuator_type"
          errors={errors}
          value={type}
          options={actuatorTypes(actuator)}
          onValue={chooseType}
          disabled={disabled}
        />
        <SelectField
          label="Sensor"
          name="sensor_id"
          errors={errors}
          value={sensorId}
          options={sensorOptions}
          onValue={setSensorId}
          disabled={disabled}
        />
        <SelectField
          label="Run when"
          name="activation_condition"
          errors={errors}
          value={condition}
          options={conditions(actuator)}
          onValue={(next) => {
            setCondition(next);
            setConditionPicked(true);
          }}
          disabled={disabled}
        />
        <NumberField
          label="Condition value"
          name="condition_value"
          errors={errors}
          value={numbers.condition_value}
          onValue={setNumber('condition_value')}
          disabled={disabled}
        />
        <NumberField
          label="Period (s)"
          name="activation_period"
          errors={errors}
          value={numbers.activation_period}
          onValue={setNumber('activation_period')}
          disabled={disabled}
          hint="Wait between runs"
        />
        <NumberField
          label="Duration (s)"
          name="activation_duration"
          errors={errors}
          value={numbers.activation_duration}
          onValue={setNumber('activation_duration')}
          disabled={disabled}
          hint="How long a run lasts"
        />
      </div>
      <fieldset class="safety" data-field="safety">
        <legend>Dosing safety</legend>
        <div class="grid">
          {LIMIT_FIELDS.map((field) => (
            <NumberField
              key={field.name}
              label={field.label}
              name={field.name}
              errors={errors}
              value={limits[field.name]}
              onValue={setLimit(field.name)}
              disabled={disabled}
              hint={field.hint}
            />
          ))}
        </div>
      </fieldset>
      <VolumeFields state={volumes} errors={errors} disabled={disabled} />
      <InterlockPicker rows={interlocks} sensors={sensors} errors={errors} disabled={disabled} onRows={setInterlocks} />
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
const thresholdTexts = (source: Partial<Thresholds>) =>
  Object.fromEntries(THRESHOLDS.map((key) => [key, text(source[key])])) as Record<(typeof THRESHOLDS)[number], string>;
const CROPS = EC_BY_CROP.map((c) => ({ value: c.id as CropId, label: c.label }));

const THRESHOLD_LABELS = {
  threshold_critically_low: 'Critically low',
  threshold_low: 'Low',
  threshold_high: 'High',
  threshold_critically_high: 'Critically high',
};

function SensorForm({ sensor, onSaved }: { sensor?: Sensor; onSaved: () => Promise<void> }) {
  const { canModify, prototype } = useDashboard();
  const [type, setType] = useState<SensorType>(sensor?.sensor_type ?? 'ph');
  const [name, setName] = useState(sensor?.sensor_name ?? '');
  const [crop, setCrop] = useState<CropId>('leafy');
  const [unit, setUnit] = useState(sensor?.sensor_unit ?? presetFor(type).unit);
  const [thresholds, setThresholds] = useState(() => thresholdTexts(sensor ?? presetFor(type).thresholds));
  const [trust, setTrust] = useState(() => trustTexts(sensor));
  const calibration = useCalibrationInterval(sensor);
  const suggested = presetFor(type, crop);
  const applyPreset = (preset: SensorPreset) => {
    setUnit(preset.unit);
    setThresholds(thresholdTexts(preset.thresholds));
  };
  // A new sensor takes its type's unit and thresholds at once: the grower accepts or edits them.
  const chooseType = (next: SensorType) => {
    setType(next);
    if (!sensor) applyPreset(presetFor(next, crop));
  };
  const chooseCrop = (next: CropId) => {
    setCrop(next);
    if (!sensor) applyPreset(presetFor(type, next));
  };
  const { errors, setErrors, status, busy, attempt, run } = useSave();
  const disabled = !canModify || busy;

  const save = async (event: Event) => {
    event.preventDefault();
    const parsed = parseNumbers(thresholds);
    const optional = parseOptionalNumbers(trust);
    const interval = calibration.changes();
    const problems = { ...parsed.errors, ...optional.errors, ...interval.errors };
    if (Object.keys(problems).length > 0) return setErrors(problems as FieldErrors);
    const fields = {
      sensor_type: type,
      sensor_name: name.trim() === '' ? null : name.trim(),
      sensor_unit: unit,
      ...parsed.values,
      ...optional.values,
      ...interval.values,
    };
    const saved = await run(
      () =>
        sensor
          ? api.updateSensors([{ sensor_id: sensor.sensor_id, ...fields }])
          : api.createSensor({ ...fields, prototype_id: prototype.prototype_id }),
      sensor ? 'Saved.' : 'Added.',
    );
    if (saved && !sensor) {
      setName('');
      applyPreset(presetFor(type, crop));
      setTrust(trustTexts(undefined));
      calibration.reset();
    }
    if (saved) await onSaved();
  };

  // Measurements or actuators below it: the service refuses, the dialog says how many, and asks again.
  const deletion = useCascadeDelete(
    (cascade) => (sensor ? attempt(() => api.deleteSensor(sensor.sensor_id, cascade), 'Deleted.') : Promise.resolve(null)),
    {
      deleted: onSaved,
      failed: (failure) => setErrors({ _form: `Could not delete: ${fieldErrors(failure)._form ?? 'the service refused'}` }),
    },
  );

  const title = sensor ? sensorName(sensor) : 'Add a sensor';
  return (
    <form class="form" onSubmit={save} aria-label={title} data-sensor-form={sensor?.sensor_id ?? 'new'}>
      <div class="grid">
        <TextField
          label="Name"
          name="sensor_name"
          errors={errors}
          value={name}
          onValue={setName}
          disabled={disabled}
          hint="Optional: “pH, bay 1”"
        />
        <SelectField
          label="Type"
          name="sensor_type"
          errors={errors}
          value={type}
          options={SENSOR_TYPES}
          onValue={chooseType}
          disabled={disabled}
        />
        {type === 'ec' && (
          <SelectField label="Crop" name="crop" errors={errors} value={crop} options={CROPS} onValue={chooseCrop} disabled={disabled} />
        )}
        <TextField
          label="Unit"
          name="sensor_unit"
          errors={errors}
          value={unit}
          onValue={setUnit}
          disabled={disabled}
          hint="pH, mS/cm, Celsius…"
        />
      </div>
      <fieldset
        class={`thresholds${errors.thresholds ? ' has-error' : ''}`}
        data-field="thresholds"
        id={sensor ? sensorTarget(sensor.sensor_id) : undefined}
        tabIndex={sensor ? -1 : undefined}
      >
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
        <p class="suggestion muted">
          Suggested for {SENSOR_TYPE_LABELS[type]}: {describeThresholds(suggested.thresholds, suggested.unit)} ({suggested.note}).{' '}
          {sensor && (
            <button type="button" class="ghost" disabled={disabled} onClick={() => applyPreset(suggested)}>
              Use the suggested values
            </button>
          )}
        </p>
      </fieldset>
      <fieldset class="trust" data-field="trust">
        <legend>Trusting readings</legend>
        <div class="grid four">
          {TRUST_FIELDS.map((field) => (
            <NumberField
              key={field.name}
              label={field.label}
              name={field.name}
              errors={errors}
              value={trust[field.name]}
              onValue={(value) => setTrust({ ...trust, [field.name]: value })}
              disabled={disabled}
              hint={field.hint}
            />
          ))}
        </div>
      </fieldset>
      <CalibrationIntervalField state={calibration} errors={errors} disabled={disabled} />
      <FormError errors={errors} names={['_form']} />
      <FormActions submit={sensor ? 'Save' : 'Add sensor'} disabled={disabled} status={status}>
        {sensor && (
          <button type="button" class="ghost danger-text" disabled={disabled} onClick={deletion.ask}>
            Delete
          </button>
        )}
      </FormActions>
      {sensor && (
        <CascadeDeleteDialog
          step={deletion.step}
          name={title}
          noun="sensor"
          holds="data"
          consequence="The sensor is removed; a device still posting to it will get “not found”."
          onConfirm={deletion.confirm}
          onCancel={deletion.cancel}
        />
      )}
    </form>
  );
}
