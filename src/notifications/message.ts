import type { FollowedAlert } from '../store/index.js';
import type { MessageKind } from './plan.js';

/** What a grower reads on the phone: what happened where, what the safety rules did, what to check. */
export interface Message {
  title: string;
  text: string;
  /** `critical` rings through do-not-disturb where the channel can; `warning` is a normal alert; `info` a quiet note. */
  priority: 'critical' | 'warning' | 'info';
  /** Where a tap acknowledges (a signed single-use link); null for notices that need no answer. */
  ack_url: string | null;
}

const LEVEL_WORDS: Record<string, [string, string]> = {
  low: ['low', 'critically low'],
  high: ['high', 'critically high'],
};

function formatValue(value: number | null, unit: string | null): string {
  if (value === null) return 'no value';
  const rounded = Math.abs(value) >= 100 ? value.toFixed(0) : String(Number(value.toPrecision(3)));
  return unit ? `${rounded} ${unit}` : rounded;
}

/** The tank and the sensor or pump, by name where they have one. */
export function subjectOf(a: FollowedAlert): string {
  const tank = a.prototype_name ? `Tank "${a.prototype_name}"` : a.prototype_id !== null ? `Tank #${a.prototype_id}` : 'sensorhub';
  if (a.actuator_id !== null) return `${tank}, pump ${a.actuator_name ? `"${a.actuator_name}"` : `#${a.actuator_id}`}`;
  if (a.sensor_id !== null) {
    const sensor = a.sensor_name ? `"${a.sensor_name}"` : `${a.sensor_unit ?? 'sensor'} #${a.sensor_id}`;
    return `${tank}, sensor ${sensor}`;
  }
  return tank;
}

/** What happened, in a few words. */
export function whatOf(a: FollowedAlert): string {
  const critical = a.severity === 'critical';
  const value = formatValue(a.last_value ?? a.value, a.sensor_unit);
  const words = LEVEL_WORDS[a.kind];
  if (words) return `${critical ? words[1] : words[0]}: ${value}`;
  switch (a.kind) {
    case 'stale':
      return 'no new reading';
    case 'invalid':
      return `impossible reading: ${value}`;
    case 'stuck':
      return `reading stuck at ${value}`;
    case 'lockout':
      return 'locked out';
    case 'limit':
      return 'dosing limit reached';
    case 'controller_offline':
      return 'pump controller offline';
    case 'stock_low':
      return `bottle running low${a.value === null ? '' : `: ${formatValue(a.value, 'ml')} left`}`;
    case 'calibration_due':
      return 'calibration due';
    case 'backup':
      return 'backup failed';
    default:
      return a.kind;
  }
}

/** What the safety rules did about it. */
export function safetyOf(a: FollowedAlert): string {
  switch (a.kind) {
    case 'low':
    case 'high':
      return 'Dosing goes on by its rules; a pump with an interlock on this sensor stays blocked while the reading is beyond its limit.';
    case 'stale':
    case 'stuck':
    case 'invalid':
      return 'Pumps that dose by this sensor wait: without a reading they can trust they do not run.';
    case 'lockout':
      return `The pump is locked out and will not run until someone unlocks it${a.lockout_reason ? ` (${a.lockout_reason})` : ''}.`;
    case 'limit':
      return 'The pump will not run again until its hourly or daily limit allows it.';
    case 'controller_offline':
      return 'The pump controller stopped asking for its orders: the pump is not under the service\u2019s control.';
    case 'stock_low':
      return 'Dosing goes on until the bottle is empty by the count.';
    default:
      return 'Nothing was stopped.';
  }
}

/** What a grower should look at first. */
export function checkOf(a: FollowedAlert): string {
  switch (a.kind) {
    case 'low':
    case 'high':
      return 'Check the tank and compare the probe with a hand meter.';
    case 'stale':
      return 'Check the sensor\u2019s power, cable and network.';
    case 'stuck':
    case 'invalid':
      return 'Check the probe: clean it, check its cable, calibrate it.';
    case 'lockout':
      return 'Check the pump, its tubing and its bottle; then unlock it in the dashboard.';
    case 'limit':
      return 'Check why the tank needs so much: a leak, a wrong probe, a wrong setting.';
    case 'controller_offline':
      return 'Check the controller\u2019s power and network.';
    case 'stock_low':
      return 'Refill the bottle and record the refill.';
    case 'calibration_due':
      return 'Calibrate the probe.';
    case 'backup':
      return 'Check the backup folder\u2019s disk.';
    default:
      return 'Check the dashboard.';
  }
}

const clock = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** The message about one alert for one channel. */
export function alertMessage(a: FollowedAlert, kind: MessageKind, ackUrl: string | null, repeat = 0): Message {
  const subject = subjectOf(a);
  const what = whatOf(a);
  const critical = a.severity === 'critical';
  if (kind === 'cleared') {
    return {
      title: `Resolved: ${subject} ${what.split(':')[0]}`,
      text: `${subject}: back to normal${a.cleared_at === null ? '' : ` since ${clock(a.cleared_at)}`} (raised ${clock(a.raised_at)}, last value ${formatValue(a.last_value, a.sensor_unit)}).`,
      priority: 'info',
      ack_url: null,
    };
  }
  const lead = {
    raised: '',
    critical: 'Now critical: ',
    repeat: `Still unanswered (reminder ${repeat + 1}): `,
    escalation: 'Nobody answered: ',
    notice: '',
  }[kind];
  const title = `${critical ? 'CRITICAL' : 'Warning'}: ${subject} ${what}`;
  const lines = [
    `${lead}${subject} is ${what} (since ${clock(a.raised_at)}).`,
    safetyOf(a),
    checkOf(a),
    ...(ackUrl ? [`Acknowledge: ${ackUrl}`] : []),
  ];
  return { title, text: lines.join('\n'), priority: critical ? 'critical' : 'warning', ack_url: ackUrl };
}

/** A notice from the service itself (back after an outage, a channel failing). */
export function noticeMessage(title: string, text: string, urgent: boolean): Message {
  return { title, text, priority: urgent ? 'critical' : 'warning', ack_url: null };
}

/** "3 h 12 min", "45 s": how long, in words a phone shows. */
export function durationWords(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}
