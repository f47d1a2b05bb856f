import type { RecordPage } from '../domain/journal-page.js';
import { changesText, type FieldChange } from '../core/settings-changes.js';
import type { Store } from '../store/index.js';
import { finiteOrNull } from '../core/finite.js';

/** A detail of an entry: a number, a text, a yes/no, or nothing. */
export type DetailValue = number | string | boolean | null;

/** One entry of a prototype's journal, as a source reads it (`at` in epoch ms). */
export interface JournalRecord {
  type: string;
  at: number;
  /** The record's id among its own kind (note_id, activation_id, …). */
  id: number;
  sensor_id: number | null;
  actuator_id: number | null;
  author: string | null;
  /** A note's text, a calibration's note, a lockout's reason. */
  text: string | null;
  tags: string[];
  /** What the kind says beside: its `detailKeys`, each present. */
  detail: Record<string, DetailValue>;
}

/** What a page of the journal asks every source for. */
export interface JournalFilter {
  /** The entry types wanted (each source yields only those of its own among them). */
  types: ReadonlySet<string>;
  /** Only entries carrying this tag. */
  tag?: string;
}

/** The store's reads the sources use. */
export type JournalStore = Pick<
  Store,
  'notes' | 'activations' | 'calibrations' | 'safetyEvents' | 'refills' | 'decisions' | 'settingsChanges'
>;

/**
 * One kind of record in the journal: the entry types it yields, the keys of their `detail`,
 * whether its entries carry tags, and how it reads one page of a prototype's records, newest
 * first (see `RecordPage`), as entries.
 */
export interface JournalSource {
  types: readonly string[];
  detailKeys: readonly string[];
  tagged: boolean;
  read(store: JournalStore, prototypeId: number, filter: JournalFilter, page: RecordPage): Promise<JournalRecord[]>;
}

const entry = (fields: Partial<JournalRecord> & Pick<JournalRecord, 'type' | 'at' | 'id'>): JournalRecord => ({
  sensor_id: null,
  actuator_id: null,
  author: null,
  text: null,
  tags: [],
  detail: {},
  ...fields,
});

const notes: JournalSource = {
  types: ['note'],
  detailKeys: [],
  tagged: true,
  async read(store, prototypeId, { tag }, page) {
    const rows = await store.notes.list({ prototypeId, tag }, page);
    return rows.map((n) => entry({ type: 'note', at: n.at, id: n.note_id, author: n.author, text: n.text, tags: n.tags }));
  },
};

/** The doses of the actuators on the prototype's sensors (docs/api.md §14). */
const doses: JournalSource = {
  types: ['dose'],
  detailKeys: ['duration', 'volume_ml', 'value_before', 'answered'],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.activations.ofPrototype(prototypeId, page);
    return rows.map((d) =>
      entry({
        type: 'dose',
        at: d.activated_at,
        id: d.activation_id,
        sensor_id: d.sensor_id,
        actuator_id: d.actuator_id,
        detail: {
          duration: d.duration,
          volume_ml: finiteOrNull(d.volume_ml),
          value_before: finiteOrNull(d.value_before),
          answered: d.answered,
        },
      }),
    );
  },
};

/** The calibrations of the prototype's sensors (docs/api.md §15). */
const calibrations: JournalSource = {
  types: ['calibration'],
  detailKeys: ['slope', 'offset', 'accepted', 'points'],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.calibrations.ofPrototype(prototypeId, page);
    return rows.map((c) =>
      entry({
        type: 'calibration',
        at: c.calibrated_at,
        id: c.calibration_id,
        sensor_id: c.sensor_id,
        author: c.author,
        text: c.note,
        detail: { slope: c.slope, offset: c.offset, accepted: c.accepted, points: c.points.length },
      }),
    );
  },
};

const SAFETY_TYPES = ['lockout', 'unlock', 'pause', 'resume'] as const;

/** Lockouts and unlocks of the prototype's actuators, pauses and resumes of the prototype (docs/api.md §14). */
const safetyEvents: JournalSource = {
  types: SAFETY_TYPES,
  detailKeys: ['until'],
  tagged: false,
  async read(store, prototypeId, { types }, page) {
    const rows = await store.safetyEvents.ofPrototype(
      prototypeId,
      SAFETY_TYPES.filter((t) => types.has(t)),
      page,
    );
    return rows.map((e) =>
      entry({
        type: e.kind,
        at: e.at,
        id: e.event_id,
        actuator_id: e.actuator_id,
        author: e.author,
        text: e.reason,
        detail: { until: e.until === null ? null : new Date(e.until).toISOString() },
      }),
    );
  },
};

/** The refills of the bottles of the prototype's actuators (docs/api.md §15): what the bottle held after. */
const refills: JournalSource = {
  types: ['refill'],
  detailKeys: ['stock_ml'],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.refills.ofPrototype(prototypeId, page);
    return rows.map((r) =>
      entry({
        type: 'refill',
        at: r.refilled_at,
        id: r.refill_id,
        sensor_id: r.sensor_id,
        actuator_id: r.actuator_id,
        author: r.author,
        detail: { stock_ml: r.stock_ml },
      }),
    );
  },
};

/** The decisions that are no hold: dosing, or waiting out its period between doses (a claim is a dose under way). */
const NOT_HOLDS = ['ok', 'waiting', 'claimed'] as const;

/**
 * The holds of the actuators on the prototype's sensors: each change of a decision to a reason
 * that keeps the pump from dosing (an interlock, a limit, a stale reading, a lockout, a pause…),
 * with the status then as its text and, in `until`, when the next change ended it (null while it
 * lasts): "held by the interlock Tank level from 03:10 to 05:40". `author` is who caused it,
 * where a person did.
 */
const holds: JournalSource = {
  types: ['hold'],
  detailKeys: ['until'],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.decisions.spansOfPrototype(prototypeId, NOT_HOLDS, page);
    return rows.map((d) =>
      entry({
        type: 'hold',
        at: d.at,
        id: d.decision_id,
        sensor_id: d.sensor_id,
        actuator_id: d.actuator_id,
        author: d.by,
        text: d.status,
        detail: { until: d.until === null ? null : new Date(d.until).toISOString() },
      }),
    );
  },
};

/**
 * The changes of the settings of the prototype's actuators and sensors: who made them (null in
 * open mode) and, as the text, each field changed with its value before and after.
 */
const settings: JournalSource = {
  types: ['settings'],
  detailKeys: [],
  tagged: false,
  async read(store, prototypeId, _filter, page) {
    const rows = await store.settingsChanges.ofPrototype(prototypeId, page);
    return rows.map((c) =>
      entry({
        type: 'settings',
        at: c.at,
        id: c.change_id,
        sensor_id: c.sensor_id,
        actuator_id: c.actuator_id,
        author: c.author,
        text: changesText(JSON.parse(c.changes) as FieldChange[]),
      }),
    );
  },
};

/**
 * Every source of the journal, in the order entries of the same instant are listed (the later
 * in this list first). A new kind of record (refills, say) is a source and one line here.
 */
export const JOURNAL_SOURCES: readonly JournalSource[] = [notes, doses, refills, calibrations, safetyEvents, settings, holds];

/** Every entry type, in the sources' order. */
export const JOURNAL_TYPES: readonly string[] = JOURNAL_SOURCES.flatMap((s) => s.types);

/**
 * The types a journal read lists when it names none: all but the holds, which are many (every
 * stale reading, every limit reached) and are listed when asked for (`type=hold`, or among others).
 */
export const DEFAULT_JOURNAL_TYPES: readonly string[] = JOURNAL_TYPES.filter((t) => t !== 'hold');
