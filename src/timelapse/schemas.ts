import { type Static, Type } from '@sinclair/typebox';
import { DateTimeOutput } from '../domain/schema-common.js';

/** Ten years: far beyond any grow cycle, and well within what dates can hold. */
export const MAX_TIMELAPSE_SECONDS = 10 * 365 * 24 * 3600;
/** Beyond this a player shows no difference. */
export const MAX_FRAMERATE = 240;

const seconds = (description: string) => Type.Integer({ exclusiveMinimum: 0, maximum: MAX_TIMELAPSE_SECONDS, description });

export const TimelapseConfig = Type.Object(
  {
    frequency: seconds('Seconds between two frames.'),
    duration: seconds('Seconds from the start to the end; at least `frequency`.'),
    framerate: Type.Integer({ exclusiveMinimum: 0, maximum: MAX_FRAMERATE, description: 'Frames per second of the video.' }),
    name: Type.Optional(
      Type.Union([Type.String({ maxLength: 200 }), Type.Null()], {
        description: 'Left out, null or blank: "Timelapse <first 8 characters of the id>".',
      }),
    ),
  },
  { title: 'TimelapseConfig', examples: [{ frequency: 600, duration: 1_209_600, framerate: 24, name: 'Lettuce, tank 2' }] },
);
export type TimelapseConfig = Static<typeof TimelapseConfig>;

/** The configuration a timelapse runs with, its name resolved. */
export const TimelapseSettings = Type.Object(
  {
    frequency: Type.Integer(),
    duration: Type.Integer(),
    framerate: Type.Integer(),
    name: Type.String(),
  },
  { title: 'TimelapseSettings' },
);

export const TimelapseMetadata = Type.Object(
  {
    id: Type.String({ description: 'A UUID.' }),
    name: Type.String(),
    frames: Type.Integer({ description: 'Frames taken so far.' }),
    failed_frames: Type.Integer({
      description:
        'Frames due so far that were not taken: the camera failed, the previous capture overran the period, or the service was down.',
    }),
    framerate: Type.Number({ description: 'Frames per second of the video.' }),
    start_date: DateTimeOutput(),
    latest_frame_date: Type.Union([DateTimeOutput('When the newest frame was taken.'), Type.Null()]),
    end_date: DateTimeOutput('start_date + duration.'),
    ready: Type.Boolean({ description: 'The video can be downloaded.' }),
  },
  { title: 'TimelapseMetadata' },
);

export const TimelapseStatus = Type.Object(
  {
    running: Type.Boolean(),
    metadata: Type.Union([TimelapseMetadata, Type.Null()], {
      description: 'The running timelapse, else the last one started; null when there is none.',
    }),
    config: Type.Union([TimelapseSettings, Type.Null()], { description: 'The configuration of that timelapse.' }),
  },
  { title: 'TimelapseStatus' },
);

export const TimelapseIdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'The timelapse id.' }) });
