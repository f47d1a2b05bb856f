import { type Static, Type } from '@sinclair/typebox';
import { IMAGE_TYPES } from '../picture/image-type.js';
import type { FrameGrid } from './schedule.js';

/** running: frames being taken; assembling: the video is (to be) made; finished: video made or given up. */
export const TIMELAPSE_STATES = ['running', 'assembling', 'finished'] as const;
export type TimelapseState = (typeof TIMELAPSE_STATES)[number];

/** Why there is no video: ffmpeg missing (tried again at the next start), failed, or over its time limit. */
export const VIDEO_FAILURES = ['missing', 'failed', 'timeout'] as const;
export type VideoFailureKind = (typeof VIDEO_FAILURES)[number];

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * One timelapse as kept in its folder's metadata.json: the public metadata (docs/api.md §7.1) plus
 * what the service needs to resume it and to say why its video is missing. Timestamps are ISO 8601.
 */
export const TimelapseRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  frames: Type.Integer({ minimum: 0 }),
  failed_frames: Type.Integer({ minimum: 0 }),
  framerate: Type.Integer({ minimum: 1 }),
  frequency: Type.Integer({ minimum: 1 }),
  duration: Type.Integer({ minimum: 1 }),
  start_date: Type.String(),
  latest_frame_date: nullable(Type.String()),
  end_date: Type.String(),
  stopped_date: nullable(Type.String()),
  ready: Type.Boolean(),
  state: literals(TIMELAPSE_STATES),
  /** Every frame has the type of the first one, so ffmpeg reads them as one sequence. */
  image_type: nullable(literals(IMAGE_TYPES)),
  video_failure: nullable(Type.Object({ kind: literals(VIDEO_FAILURES), message: Type.String() })),
});
export type TimelapseRecord = Static<typeof TimelapseRecord>;

/**
 * A parsed metadata.json, or undefined when it is not one (a damaged or foreign file). TypeBox's
 * value checker loads with the first folder read: a service without timelapses never needs it.
 */
export async function asRecord(value: unknown): Promise<TimelapseRecord | undefined> {
  const { Value } = await import('@sinclair/typebox/value');
  return Value.Check(TimelapseRecord, value) ? value : undefined;
}

/** What the timelapse was started with, its name resolved. */
export const configOf = (record: TimelapseRecord) => ({
  frequency: record.frequency,
  duration: record.duration,
  framerate: record.framerate,
  name: record.name,
});

/** The grid of slots the timelapse takes its frames on. */
export const gridOf = (record: TimelapseRecord): FrameGrid => ({
  startMs: Date.parse(record.start_date),
  frequencyMs: record.frequency * 1000,
  durationMs: record.duration * 1000,
});

/** A new timelapse's record, as it starts at `startMs`. */
export function newRecord(
  id: string,
  config: { frequency: number; duration: number; framerate: number; name?: string | null },
  startMs: number,
): TimelapseRecord {
  return {
    id,
    name: config.name?.trim() || `Timelapse ${id.slice(0, 8)}`,
    frames: 0,
    failed_frames: 0,
    framerate: config.framerate,
    frequency: config.frequency,
    duration: config.duration,
    start_date: new Date(startMs).toISOString(),
    latest_frame_date: null,
    end_date: new Date(startMs + config.duration * 1000).toISOString(),
    stopped_date: null,
    ready: false,
    state: 'running',
    image_type: null,
    video_failure: null,
  };
}
