import { useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { useDashboard } from '../context';
import { durationText, pauseLeftMs } from '../domain/dosing';
import { useNow } from '../state/clock';
import { ActionProblem, useAction } from './action';
import { When } from './when';

const PRESETS = [
  { label: '15 min', seconds: 15 * 60 },
  { label: '1 h', seconds: 3600 },
  { label: '4 h', seconds: 4 * 3600 },
];

/**
 * Pause dosing on the prototype (docs/api.md §14): for a while (15 min, 1 h, 4 h or a number of
 * minutes, up to 24 h), with the time left counting down, and *Resume*. The service ends a pause
 * by itself; `onChange` tells the page the new `paused_until` (null: dosing again).
 */
export function PauseControl({ pausedUntil, onChange }: { pausedUntil: string | null; onChange: (pausedUntil: string | null) => void }) {
  const { prototype, canModify } = useDashboard();
  const nowMs = useNow(1000);
  const { busy, problem, act } = useAction();
  const [minutes, setMinutes] = useState('30');
  const left = pauseLeftMs(pausedUntil, nowMs);
  const disabled = !canModify || busy;

  const pause = (seconds: number) => act('pause', async () => onChange((await api.pause(prototype.prototype_id, seconds)).paused_until));
  const resume = () =>
    act('resume', async () => {
      await api.resume(prototype.prototype_id);
      onChange(null);
    });
  const custom = (event: Event) => {
    event.preventDefault();
    // The service says what is wrong with a length (1 s to 24 h); text that is no number is sent as 0 for it to refuse.
    const value = Number(minutes.trim().replace(',', '.'));
    void pause(Number.isFinite(value) ? Math.round(value * 60) : 0);
  };

  return (
    <div class={`card pause-control${left !== null ? ' paused' : ''}`} data-paused={left !== null ? 'true' : 'false'}>
      <p class="pause-state" role="status">
        {left !== null && pausedUntil ? (
          <>
            <strong>Dosing paused</strong>: <span class="pause-left">{durationText(left, 'floor')}</span> left (until{' '}
            <When at={pausedUntil} timeOnly />)
          </>
        ) : (
          <>
            <strong>Dosing on</strong>: the pumps follow their rules.
          </>
        )}
      </p>
      <div class="pause-actions">
        {PRESETS.map((preset) => (
          <button key={preset.seconds} type="button" class="ghost" disabled={disabled} onClick={() => void pause(preset.seconds)}>
            Pause {preset.label}
          </button>
        ))}
        <form class="pause-custom" onSubmit={custom}>
          <label>
            <span>Minutes</span>
            <input
              type="text"
              inputMode="decimal"
              name="pause_minutes"
              value={minutes}
              disabled={disabled}
              onInput={(e) => setMinutes(e.currentTarget.value)}
            />
          </label>
          <button type="submit" class="ghost" disabled={disabled}>
            Pause
          </button>
        </form>
        {left !== null && (
          <button type="button" disabled={disabled} onClick={() => void resume()}>
            Resume
          </button>
        )}
      </div>
      <ActionProblem problem={problem} />
    </div>
  );
}
