import { useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import type { ActivationRecord, Actuator, ActuatorState, Measurement, Sensor } from '../api/types';
import { useDashboard } from '../context';
import {
  conditionText,
  decisionWords,
  doseSummary,
  effectiveDecision,
  hasNeverRun,
  msUntilMayDose,
  nextDoseText,
  pollText,
  unansweredWarning,
} from '../domain/dosing';
import { expectedEffectText } from '../domain/usual';
import { actuatorName, CONDITION_LABELS, SENSOR_TYPE_LABELS, sensorName } from '../domain/labels';
import { localizeInstants } from '../domain/local-time';
import { useNow } from '../state/clock';
import { ActionProblem, useAction } from './action';
import { ActuatorRecords } from './actuator-records';
import { ConfirmDialog } from './confirm';
import { ConnectButton } from './connect-panel';
import { When } from './when';
import { actuatorConnect } from '../domain/connect';

/** The doses a card knows: those of the last 24 h, and whether any was ever recorded. */
export interface ActuatorDoses {
  /** The last 24 h, newest first. */
  day: ActivationRecord[];
  /** The newest dose of all time; null when none was ever recorded (the pump never ran). */
  newest: ActivationRecord | null;
  /** The newest doses of all time (up to 200), newest first: what a dose's effect is learned from. */
  recent: ActivationRecord[];
}

interface Props {
  actuator: Actuator;
  state: ActuatorState;
  doses?: ActuatorDoses;
  /** The actuator's sensor and its newest reading, when it is one of this prototype's. */
  sensor?: { sensor: Sensor; last: Measurement | null };
  /** Dosing on its prototype is paused. */
  paused: boolean;
  nowMs: number;
  /** The actuator as an unlock or a refill answered it. */
  onChanged: (actuator: Actuator) => void;
}

/**
 * One pump: what it will do and why, in words (docs/api.md §14), its value against the threshold,
 * when it last ran and when it may dose again, its doses against its limits, its controller's
 * last poll, and a lockout with its *Unlock* button.
 */
export function ActuatorCard({ actuator, state, doses, sensor, paused, nowMs, onChanged }: Props) {
  const decision = effectiveDecision(state, { lockout: actuator.lockout, enabled: actuator.enabled, paused });
  const words = decisionWords(decision);
  const locked = actuator.lockout !== null;
  // A pause is the grower's own choice: amber; a pump blocked by a fault or a lockout: red.
  const tone = !actuator.enabled
    ? 'unknown'
    : locked || words.tone === 'blocked'
      ? 'critical'
      : words.tone === 'paused'
        ? 'warning'
        : words.tone;
  const badge = !actuator.enabled
    ? 'disabled'
    : locked
      ? 'locked out'
      : decision.reason === 'paused'
        ? 'paused'
        : words.tone === 'blocked'
          ? 'blocked'
          : decision.activate
            ? 'run now'
            : 'idle';
  const { settings } = useDashboard();
  const sensorLabel = sensor ? SENSOR_TYPE_LABELS[sensor.sensor.sensor_type] : `sensor #${actuator.sensor_id}`;
  const value = conditionText(sensorLabel, sensor?.last?.value, actuator.activation_condition, actuator.condition_value);
  const condition =
    actuator.activation_condition === 'always' || actuator.activation_condition === 'schedule'
      ? CONDITION_LABELS[actuator.activation_condition]
      : `${CONDITION_LABELS[actuator.activation_condition]} ${actuator.condition_value}`;
  const summary = doses && doseSummary(doses.day, actuator, nowMs);
  // A stuck probe looks like an idle pump: the doses that moved nothing say otherwise, before the lockout.
  const unanswered = doses && unansweredWarning(doses.day, actuator.lockout_after, sensorLabel);
  // The move a dose should make against the one last seen: a probe that stopped answering shows here first.
  const effect = doses && expectedEffectText(doses.recent, actuator.activation_duration, sensorLabel);
  const poll = pollText(actuator, nowMs);
  const neverRun = doses ? hasNeverRun(doses.newest) : false;
  return (
    <li class={`card actuator tone-${tone}`} data-actuator-id={actuator.actuator_id}>
      <div class="card-head">
        <h3>{actuatorName(actuator)}</h3>
        <span class={`badge tone-${tone}`}>{badge}</span>
      </div>
      {actuator.lockout && <Lockout actuator={actuator} onUnlocked={onChanged} />}
      {!actuator.lockout && unanswered && (
        <p class={`unanswered tone-${unanswered.near ? 'critical' : 'warning'}`} role="status">
          {unanswered.text}
          {actuator.lockout_after ? `: at ${actuator.lockout_after} it locks out` : ''}. Check the bottle, the tubing and the probe.
        </p>
      )}
      <dl class="facts">
        <dt>Decision</dt>
        <dd>
          <span class="decision">{words.text}</span>
          {words.detail && <small class="decision-detail muted">{localizeInstants(words.detail)}</small>}
        </dd>
        <dt>Value</dt>
        <dd class="condition" data-met={value.met === null ? undefined : String(value.met)}>
          {value.text}
        </dd>
        <dt>Rule</dt>
        <dd>
          {sensor ? sensorName(sensor.sensor) : `sensor #${actuator.sensor_id}`}, {condition}; runs {state.duration} s, at most every{' '}
          {state.period} s
        </dd>
        <dt>Last run</dt>
        <dd class="last-run">{neverRun ? 'never run' : <When at={actuator.last_activated} nowMs={nowMs} />}</dd>
        {actuator.enabled && (
          <>
            <dt>Next dose</dt>
            <dd>
              <Countdown actuator={actuator} reason={decision.reason} />
            </dd>
          </>
        )}
        <dt>Doses</dt>
        <dd class="doses" data-hour={summary?.hourDoses} data-day={summary?.dayDoses}>
          {summary ? (
            <>
              <span class={summary.atLimit ? 'at-limit' : undefined}>{summary.hourText}</span>
              <small class="muted">{summary.dayText}</small>
            </>
          ) : (
            'loading…'
          )}
        </dd>
        {effect && (
          <>
            <dt>Effect</dt>
            <dd class="effect" data-expected={effect.expected} data-last={effect.last ?? undefined}>
              {effect.text}
            </dd>
          </>
        )}
        <ActuatorRecords actuator={actuator} onChanged={onChanged} />
        <dt>Controller</dt>
        <dd class={`poll${poll.offline ? ' offline' : ''}`}>{poll.text}</dd>
      </dl>
      <ConnectButton
        title={actuatorName(actuator)}
        info={() => actuatorConnect(location.origin, actuator, settings.mqtt_prefix, settings.auth_mode === 'enforced')}
      />
    </li>
  );
}

/** "may dose in 4 min 05 s", counting down every second. */
function Countdown({ actuator, reason }: { actuator: Actuator; reason?: string }) {
  const nowMs = useNow(1000);
  return (
    <span class="countdown" title="The activation period after the last run (or the creation)">
      {nextDoseText(reason, msUntilMayDose(actuator, nowMs))}
    </span>
  );
}

function Lockout({ actuator, onUnlocked }: { actuator: Actuator; onUnlocked: (actuator: Actuator) => void }) {
  const { canModify } = useDashboard();
  const { busy, problem, act } = useAction();
  const [confirming, setConfirming] = useState(false);
  const lockout = actuator.lockout;
  if (!lockout) return null;
  const name = actuatorName(actuator);
  const unlock = () => {
    setConfirming(false);
    void act('unlock', async () => onUnlocked(await api.unlock(actuator.actuator_id)));
  };
  return (
    <div class="lockout" role="group" aria-label={`${name} is locked out`}>
      <p>
        <strong>Locked out</strong> since <When at={lockout.since} />: {localizeInstants(lockout.reason)}
      </p>
      <button type="button" class="danger" disabled={!canModify || busy} onClick={() => setConfirming(true)}>
        Unlock
      </button>
      <ActionProblem problem={problem} />
      <ConfirmDialog
        open={confirming}
        title={`Unlock ${name}?`}
        confirmLabel="Unlock"
        onConfirm={unlock}
        onCancel={() => setConfirming(false)}
      >
        <p>Its doses did not move the reading. Check the bottle, the tubing and the probe first: once unlocked it may dose again.</p>
      </ConfirmDialog>
    </div>
  );
}
