import { useEffect, useRef, useState } from 'preact/hooks';
import { type FieldErrors, fieldErrors } from '../api/errors';
import { recordsApi } from '../api/records-endpoints';
import type { Actuator } from '../api/types';
import { useDashboard } from '../context';
import { actuatorName } from '../domain/labels';
import { parseNumbers } from '../domain/numbers';
import { bottleLevel, mlText, refillSuggestion, type VolumeTotals, volumeText, volumeTotals, volumeWindow } from '../domain/volumes';
import { usualText, type UsualDosing } from '../domain/usual';
import { FormError, NumberField } from './fields';
import { Modal } from './modal';

/** Refills looked through for a pump's last one: the newest of the tank's. */
const REFILLS_READ = 100;

interface Props {
  actuator: Actuator;
  /** The actuator as the refill answered it. */
  onChanged: (actuator: Actuator) => void;
}

/**
 * An actuator card's records (docs/api.md §15), as rows of its facts: the millilitres dosed today
 * and over seven days (`GET /actuators/{id}/doses`, read again after each run) with the usual
 * amount against the recent one (that answer's headers), and the bottle's
 * level against its low mark with *Refill*.
 */
export function ActuatorRecords({ actuator, onChanged }: Props) {
  const { prototype } = useDashboard();
  const [totals, setTotals] = useState<VolumeTotals | null>(null);
  const [usual, setUsual] = useState<UsualDosing | null>(null);
  const [lastRefill, setLastRefill] = useState<number | null>(null);
  const id = actuator.actuator_id;

  useEffect(() => {
    let current = true;
    const { startMs, todayMs } = volumeWindow(Date.now());
    // One read per run: the totals, and the usual dosing in the same answer's headers.
    recordsApi.doseTotals(id, { bucket: '1h', start_time: new Date(startMs).toISOString() }).then(
      ({ buckets, usual: learned }) => {
        if (!current) return;
        setTotals(volumeTotals(buckets, todayMs, startMs));
        setUsual(learned);
      },
      () => {
        if (!current) return;
        setTotals(null);
        setUsual(null);
      },
    );
    return () => {
      current = false;
    };
  }, [id, actuator.last_activated, actuator.flow_ml_per_s]);

  useEffect(() => {
    let current = true;
    recordsApi.journal(prototype.prototype_id, { type: 'refill', limit: REFILLS_READ }).then(
      (entries) => {
        const amount = entries.find((entry) => entry.actuator_id === id)?.detail.stock_ml;
        if (current) setLastRefill(typeof amount === 'number' ? amount : null);
      },
      () => current && setLastRefill(null),
    );
    return () => {
      current = false;
    };
  }, [prototype.prototype_id, id]);

  const words = totals && volumeText(totals, actuator.flow_ml_per_s);
  // A drifting probe makes a pump dose ever more while each dose looks answered: the usual amount shows it.
  const usualLine = usualText(usual, actuator.unusual_factor);
  const level = bottleLevel({ stock_ml: actuator.stock_ml ?? null, stock_low_ml: actuator.stock_low_ml ?? null }, lastRefill);
  return (
    <>
      <dt>Dosed</dt>
      <dd class="volumes" data-today-ml={totals?.todayMl} data-week-ml={totals?.weekMl}>
        {words ? (
          <>
            <span class="volume-today">{words.today}</span>
            <small class="muted">{words.week}</small>
            {words.hint && <small class="muted">{words.hint}</small>}
          </>
        ) : (
          'loading…'
        )}
      </dd>
      {usualLine && (
        <>
          <dt>Consumption</dt>
          <dd
            class={`usual tone-${usualLine.tone}`}
            data-ratio={usual?.ratio ?? undefined}
            title={`Learned from ${usual?.days} days with doses`}
          >
            {usualLine.text}
          </dd>
        </>
      )}
      <dt>Bottle</dt>
      <dd class={`bottle state-${level?.state ?? 'untracked'}`} data-stock-ml={level?.stockMl}>
        {level ? (
          <>
            <span class="bottle-level">
              {level.capacityMl !== null && level.capacityMl > 0 && (
                <meter
                  min={0}
                  max={level.capacityMl}
                  low={level.lowMl ?? undefined}
                  optimum={level.capacityMl}
                  value={level.stockMl}
                  aria-label={`${actuatorName(actuator)}: bottle level`}
                />
              )}
              <span class="bottle-text">{level.text}</span>
            </span>
            <small class="muted">{level.lowMl === null ? 'no low mark' : `low mark ${mlText(level.lowMl)}`}</small>
            {level.warning && <strong class="bottle-warning">{level.warning}</strong>}
          </>
        ) : (
          <small class="muted">not tracked: refill to count it down</small>
        )}
        <RefillButton
          actuator={actuator}
          suggestion={refillSuggestion(lastRefill, actuator.stock_ml)}
          onRefilled={(answer, ml) => {
            setLastRefill(ml);
            onChanged(answer);
          }}
        />
      </dd>
    </>
  );
}

/** *Refill*: the new content of the bottle, suggested from the last refill. */
function RefillButton({
  actuator,
  suggestion,
  onRefilled,
}: {
  actuator: Actuator;
  suggestion: string;
  onRefilled: (actuator: Actuator, ml: number) => void;
}) {
  const { canModify } = useDashboard();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const name = actuatorName(actuator);
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return (
    <>
      <button
        type="button"
        class="ghost refill"
        ref={opener}
        disabled={!canModify}
        onClick={() => setOpen(true)}
        aria-label={`Refill ${name}`}
      >
        Refill
      </button>
      <Modal open={open} title={`Refill ${name}`} onClose={close} class="refill-dialog">
        <RefillForm
          actuatorId={actuator.actuator_id}
          suggestion={suggestion}
          onCancel={close}
          onRefilled={(answer, ml) => {
            close();
            onRefilled(answer, ml);
          }}
        />
      </Modal>
    </>
  );
}

function RefillForm({
  actuatorId,
  suggestion,
  onCancel,
  onRefilled,
}: {
  actuatorId: number;
  suggestion: string;
  onCancel: () => void;
  onRefilled: (actuator: Actuator, ml: number) => void;
}) {
  const [ml, setMl] = useState(suggestion);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const send = async (event: Event) => {
    event.preventDefault();
    const parsed = parseNumbers({ stock_ml: ml });
    if (parsed.errors.stock_ml) return setErrors({ stock_ml: parsed.errors.stock_ml });
    setBusy(true);
    try {
      const answer = await recordsApi.refill(actuatorId, parsed.values.stock_ml);
      setErrors({});
      onRefilled(answer, parsed.values.stock_ml);
    } catch (error) {
      setErrors(fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={send} aria-label="Refill">
      <NumberField
        label="The bottle now holds (ml)"
        name="stock_ml"
        errors={errors}
        value={ml}
        onValue={setMl}
        disabled={busy}
        hint="Recorded in the journal; a pump held back as empty may dose again."
      />
      <FormError errors={errors} names={['_form']} />
      <div class="actions">
        <button type="button" class="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          Refill
        </button>
      </div>
    </form>
  );
}
