import type { FollowedAlert, NotificationProgress } from '../store/index.js';

/**
 * What an alert's messages are, decided from the alert as stored and how far its messages have
 * gone: a pure function, run again from the store after any restart, so nothing is lost or sent
 * twice by a crash (the progress and the outbox rows commit together).
 */
export type MessageKind = 'raised' | 'critical' | 'repeat' | 'escalation' | 'cleared' | 'notice';

export interface PlannedMessage {
  kind: MessageKind;
  /** Also (or, for `escalation`, only) to the channels marked `escalation`. */
  escalated: boolean;
  /** How many repeats came before this one (repeats only). */
  repeat?: number;
}

export interface PlanSettings {
  /** NOTIFY_REPEAT: the waits between messages of an unanswered critical alert. */
  repeatWaits: readonly number[];
  /** NOTIFY_ESCALATE_AFTER. */
  escalateAfterMs: number;
}

export interface Plan {
  messages: PlannedMessage[];
  /** undefined: nothing changed (nothing to write). */
  progress: NotificationProgress | undefined;
  /** When this alert must be looked at again (a repeat, the escalation); undefined: only when it changes. */
  wakeAt: number | undefined;
}

type AlertState = Pick<FollowedAlert, 'alert_id' | 'severity' | 'state' | 'acknowledged_at'>;

const unanswered = (a: AlertState) => a.state === 'active' && a.severity === 'critical' && a.acknowledged_at === null;

function wakeOf(p: NotificationProgress, alert: AlertState, s: PlanSettings): number | undefined {
  if (p.finished || !unanswered(alert)) return undefined;
  const times = [p.next_repeat_at];
  if (!p.escalated && p.critical_since !== null) times.push(p.critical_since + s.escalateAfterMs);
  const due = times.filter((t): t is number => t !== null);
  return due.length ? Math.min(...due) : undefined;
}

export function planAlert(alert: AlertState, before: NotificationProgress | undefined, now: number, s: PlanSettings): Plan {
  if (before?.finished) return { messages: [], progress: undefined, wakeAt: undefined };
  const critical = alert.severity === 'critical';
  const waitFirst = s.repeatWaits[0];

  if (!before) {
    if (alert.state !== 'active') {
      // Raised and cleared before it was seen (a short excursion, or while the service was down): one message says both.
      const progress = base(alert, critical ? now : null);
      return { messages: [{ kind: 'cleared', escalated: false }], progress: { ...progress, finished: true }, wakeAt: undefined };
    }
    const progress = base(alert, critical ? now : null);
    progress.next_repeat_at = unanswered(alert) ? now + waitFirst : null;
    return { messages: [{ kind: 'raised', escalated: false }], progress, wakeAt: wakeOf(progress, alert, s) };
  }

  const p: NotificationProgress = { ...before };
  const messages: PlannedMessage[] = [];
  if (alert.state !== 'active') {
    messages.push({ kind: 'cleared', escalated: p.escalated });
    p.finished = true;
    p.next_repeat_at = null;
    return { messages, progress: p, wakeAt: undefined };
  }
  if (critical && p.severity !== 'critical') {
    // Worse: a message now, and the repeats start over.
    messages.push({ kind: 'critical', escalated: p.escalated });
    p.critical_since ??= now;
    p.sends = 0;
    p.next_repeat_at = alert.acknowledged_at === null ? now + waitFirst : null;
  } else if (!critical && p.severity === 'critical') {
    // Better, still active: the repeats stop (a warning is told once).
    p.next_repeat_at = null;
  }
  p.severity = alert.severity;
  if (!unanswered(alert)) {
    p.next_repeat_at = null;
  } else {
    if (!p.escalated && p.critical_since !== null && now >= p.critical_since + s.escalateAfterMs) {
      messages.push({ kind: 'escalation', escalated: true });
      p.escalated = true;
    }
    if (p.next_repeat_at === null) p.next_repeat_at = now + waitFirst;
    else if (now >= p.next_repeat_at) {
      messages.push({ kind: 'repeat', escalated: p.escalated, repeat: p.sends });
      p.sends += 1;
      p.next_repeat_at = now + s.repeatWaits[Math.min(p.sends, s.repeatWaits.length - 1)];
    }
  }
  const changed = JSON.stringify(p) !== JSON.stringify(before);
  return { messages, progress: changed ? p : undefined, wakeAt: wakeOf(p, alert, s) };
}

function base(alert: AlertState, criticalSince: number | null): NotificationProgress {
  return {
    alert_id: alert.alert_id,
    severity: alert.severity,
    critical_since: criticalSince,
    sends: 0,
    next_repeat_at: null,
    escalated: false,
    finished: false,
  };
}

export interface ChannelFilter {
  min_severity: string;
  prototype_ids: number[] | null;
  escalation: boolean;
}

/**
 * Whether a channel gets a message: escalation channels only once an alert escalated; a
 * critical-only channel only about alerts that are (or were, for the all-clear) critical; a
 * channel for some tanks only about those (the service's own alerts go everywhere).
 */
export function channelWants(
  channel: ChannelFilter,
  alert: Pick<FollowedAlert, 'severity' | 'prototype_id'>,
  message: PlannedMessage,
  wasCritical: boolean,
): boolean {
  if (channel.escalation ? !message.escalated : message.kind === 'escalation') return false;
  if (channel.min_severity === 'critical' && !(alert.severity === 'critical' || (message.kind === 'cleared' && wasCritical))) return false;
  if (channel.prototype_ids && alert.prototype_id !== null && !channel.prototype_ids.includes(alert.prototype_id)) return false;
  return true;
}
