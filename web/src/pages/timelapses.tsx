import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { ApiError, type FieldErrors, fieldErrors } from '../api/errors';
import type { Timelapse, TimelapseState } from '../api/types';
import { ActionProblem, useAction } from '../components/action';
import { ConfirmDialog } from '../components/confirm';
import { When } from '../components/when';
import { FormActions, FormError, NumberField, SelectField, TextField } from '../components/fields';
import { keepFocus } from '../components/focus';
import { useDashboard } from '../context';
import { parseNumbers } from '../domain/numbers';
import { DURATION_UNITS, type DurationUnit, progressOf, statusPollMs, toSeconds } from '../domain/timelapse';

/**
 * Timelapses of the camera (docs/api.md §7.1): start one, follow it, stop it, download and delete the
 * videos. The service streams no timelapse events, so while one runs (or its video is being
 * made) this page reads its status again at the pace its frames are taken.
 */
export function Timelapses({ noCamera }: { noCamera: boolean }) {
  const [state, setState] = useState<TimelapseState | null>(null);
  const [list, setList] = useState<Timelapse[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [status, all] = await Promise.all([api.timelapseStatus(), api.timelapses()]);
      setState(status);
      setList(all);
      setFailure(null);
    } catch (error) {
      setFailure((error as Error).message);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  const pollMs = state ? statusPollMs(state, Date.now()) : null;
  const seen = state?.metadata ? `${state.running}|${state.metadata.frames}|${state.metadata.ready}` : '';
  useEffect(() => {
    if (pollMs === null) return;
    const timer = setTimeout(() => void reload(), pollMs);
    return () => clearTimeout(timer);
  }, [pollMs, seen, state]);

  return (
    <section aria-labelledby="timelapse-heading" class="timelapses">
      <h2 id="timelapse-heading">Timelapses</h2>
      {failure && (
        <p class="error" role="alert">
          Could not read the timelapses: {failure}
        </p>
      )}
      {state?.running && state.metadata ? (
        <Running timelapse={state.metadata} onChange={reload} />
      ) : (
        state && <StartForm onStarted={reload} noCamera={noCamera} />
      )}
      {list && <Past list={list} runningId={state?.running ? state.metadata?.id : undefined} onChange={reload} />}
    </section>
  );
}

/**
 * The form of a new timelapse. With no camera the service refuses to start one (409, saying what
 * to set): the form says so beforehand, and shows the service's reason when it refuses.
 */
function StartForm({ onStarted, noCamera }: { onStarted: () => Promise<void>; noCamera: boolean }) {
  const { canModify } = useDashboard();
  const [name, setName] = useState('');
  const [numbers, setNumbers] = useState({ frequency: '10', duration: '14', framerate: '24' });
  const [units, setUnits] = useState<{ frequency: DurationUnit; duration: DurationUnit }>({ frequency: 'minutes', duration: 'days' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const disabled = !canModify || busy;
  const unitOptions = DURATION_UNITS.map((unit) => ({ value: unit.id, label: unit.label }));

  const start = async (event: Event) => {
    event.preventDefault();
    const parsed = parseNumbers(numbers);
    if (Object.keys(parsed.errors).length > 0) return setErrors(parsed.errors as FieldErrors);
    const giveFocusBack = keepFocus();
    setBusy(true);
    try {
      await api.startTimelapse({
        name: name.trim() === '' ? null : name.trim(),
        frequency: toSeconds(parsed.values.frequency, units.frequency),
        duration: toSeconds(parsed.values.duration, units.duration),
        framerate: parsed.values.framerate,
      });
      setErrors({});
      await onStarted();
    } catch (error) {
      // A refusal of the whole start (no camera, one already running) says so, in the service's words.
      const refused = error instanceof ApiError && error.status === 409;
      setErrors(refused ? { _form: `Not started: ${error.message}` } : fieldErrors(error));
    } finally {
      setBusy(false);
      giveFocusBack();
    }
  };

  return (
    <form class="card form" onSubmit={start} aria-labelledby="timelapse-start-heading">
      <h3 id="timelapse-start-heading">Start a timelapse</h3>
      <div class="grid">
        <TextField label="Name" name="name" errors={errors} value={name} onValue={setName} disabled={disabled} hint="Optional" />
        <NumberField
          label="A frame every"
          name="frequency"
          errors={errors}
          value={numbers.frequency}
          onValue={(frequency) => setNumbers({ ...numbers, frequency })}
          disabled={disabled}
        />
        <SelectField
          label="Unit of the interval"
          name="frequency_unit"
          errors={errors}
          value={units.frequency}
          options={unitOptions}
          onValue={(frequency) => setUnits({ ...units, frequency })}
          disabled={disabled}
        />
        <NumberField
          label="For"
          name="duration"
          errors={errors}
          value={numbers.duration}
          onValue={(duration) => setNumbers({ ...numbers, duration })}
          disabled={disabled}
        />
        <SelectField
          label="Unit of the duration"
          name="duration_unit"
          errors={errors}
          value={units.duration}
          options={unitOptions}
          onValue={(duration) => setUnits({ ...units, duration })}
          disabled={disabled}
        />
        <NumberField
          label="Video frame rate (per second)"
          name="framerate"
          errors={errors}
          value={numbers.framerate}
          onValue={(framerate) => setNumbers({ ...numbers, framerate })}
          disabled={disabled}
        />
      </div>
      {noCamera && !errors._form && (
        <p class="muted no-camera">
          No camera is set up yet (<code>PICTURE_SOURCE</code>, or a picture uploaded with <code>PUT /picture</code>): the service will not
          start a timelapse without one.
        </p>
      )}
      <FormError errors={errors} names={['_form']} />
      <FormActions submit={busy ? 'Starting…' : 'Start timelapse'} disabled={disabled} status="" />
    </form>
  );
}

function Running({ timelapse, onChange }: { timelapse: Timelapse; onChange: () => Promise<void> }) {
  const { canModify } = useDashboard();
  const [frame, setFrame] = useState<string | null>(null);
  const { busy, problem, act } = useAction();
  const progress = progressOf(timelapse, Date.now());

  // The preview follows the frames; none is asked for before the first (the service answers 404).
  useEffect(() => {
    if (timelapse.frames === 0) return;
    let url: string | null = null;
    api.latestFrame().then(
      (blob) => {
        if (!blob) return;
        url = URL.createObjectURL(blob);
        setFrame(url);
      },
      () => setFrame(null),
    );
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [timelapse.id, timelapse.frames]);

  const stop = () =>
    act('stop', async () => {
      await api.stopTimelapse();
      await onChange();
    });

  return (
    <div class="card running" data-timelapse-running={timelapse.id}>
      <h3>{timelapse.name}: running</h3>
      <label class="progress">
        <span>
          {Math.round(progress * 100)} % of its time, {timelapse.frames} {timelapse.frames === 1 ? 'frame' : 'frames'} taken
          {timelapse.failed_frames > 0 && `, ${timelapse.failed_frames} missed`}
        </span>
        <progress max={1} value={progress} />
      </label>
      <p class="meta">
        Started <When at={timelapse.start_date} />, ends <When at={timelapse.end_date} />
        {timelapse.latest_frame_date && (
          <>
            {' '}
            · newest frame <When at={timelapse.latest_frame_date} timeOnly />
          </>
        )}
      </p>
      {frame && <img class="frame" src={frame} alt={`Newest frame of ${timelapse.name}`} />}
      <div class="actions">
        <button type="button" class="danger" disabled={!canModify || busy} onClick={stop}>
          {busy ? 'Stopping…' : 'Stop and make the video'}
        </button>
        <ActionProblem problem={problem} />
      </div>
    </div>
  );
}

function Past({ list, runningId, onChange }: { list: Timelapse[]; runningId?: string; onChange: () => Promise<void> }) {
  const past = list.filter((timelapse) => timelapse.id !== runningId);
  if (past.length === 0) return <p class="muted">No finished timelapse yet.</p>;
  return (
    <ul class="cards timelapse-list">
      {past.map((timelapse) => (
        <PastItem key={timelapse.id} timelapse={timelapse} onChange={onChange} />
      ))}
    </ul>
  );
}

function PastItem({ timelapse, onChange }: { timelapse: Timelapse; onChange: () => Promise<void> }) {
  const { canModify } = useDashboard();
  const [asking, setAsking] = useState(false);
  const { busy, problem, act } = useAction();
  const download = () =>
    act('download', async () => {
      // Fetched rather than linked, so that the token goes with it in enforced mode.
      const url = URL.createObjectURL(await api.timelapseVideo(timelapse.id));
      const link = document.createElement('a');
      link.href = url;
      link.download = `timelapse_${timelapse.id}.mp4`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    });
  const remove = () => {
    setAsking(false);
    void act('delete', async () => {
      await api.deleteTimelapse(timelapse.id);
      await onChange();
    });
  };

  return (
    <li class="card" data-timelapse={timelapse.id} data-ready={timelapse.ready ? 'true' : undefined}>
      <div class="card-head">
        <h3>{timelapse.name}</h3>
        <span class={`badge tone-${timelapse.ready ? 'ok' : 'unknown'}`}>{timelapse.ready ? 'video ready' : 'no video yet'}</span>
      </div>
      <p class="meta">
        <When at={timelapse.start_date} /> · {timelapse.frames} {timelapse.frames === 1 ? 'frame' : 'frames'}
        {timelapse.failed_frames > 0 && `, ${timelapse.failed_frames} missed`} · {timelapse.framerate} per second
      </p>
      <div class="actions">
        <button type="button" disabled={!timelapse.ready || busy} onClick={download} aria-label={`Download the video of ${timelapse.name}`}>
          Download
        </button>
        <button
          type="button"
          class="ghost danger-text"
          disabled={!canModify || busy}
          onClick={() => setAsking(true)}
          aria-label={`Delete ${timelapse.name}`}
        >
          Delete
        </button>
        <ActionProblem problem={problem} />
      </div>
      <ConfirmDialog
        open={asking}
        title={`Delete ${timelapse.name}?`}
        confirmLabel="Delete"
        onConfirm={remove}
        onCancel={() => setAsking(false)}
      >
        <p>Its frames and its video are removed from the service. This cannot be undone.</p>
      </ConfirmDialog>
    </li>
  );
}
