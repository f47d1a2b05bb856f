import { describe, expect, it } from 'vitest';
import type { TimelapseState } from '../src/api/types';
import { progressOf, statusPollMs, toSeconds } from '../src/domain/timelapse';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const metadata = {
  id: 'a',
  name: 'Lettuce',
  frames: 3,
  failed_frames: 0,
  framerate: 24,
  start_date: '2026-11-24T11:00:00.000Z',
  latest_frame_date: '2026-11-24T11:59:00.000Z',
  end_date: '2026-11-24T13:00:00.000Z',
  ready: false,
};
const config = { frequency: 600, duration: 7200, framerate: 24, name: 'Lettuce' };
const state = (change: Partial<TimelapseState>): TimelapseState => ({ running: true, metadata, config, ...change });

describe('toSeconds', () => {
  it('converts the form’s units', () => {
    expect(toSeconds(10, 'minutes')).toBe(600);
    expect(toSeconds(14, 'days')).toBe(1_209_600);
    expect(toSeconds(1.5, 'hours')).toBe(5400);
    expect(toSeconds(0.5, 'seconds')).toBe(0.5);
  });
});

describe('progressOf', () => {
  it('is the share of the time gone by, within 0 and 1', () => {
    expect(progressOf(metadata, NOW)).toBe(0.5);
    expect(progressOf(metadata, NOW - 2 * 3_600_000)).toBe(0);
    expect(progressOf(metadata, NOW + 3_600_000)).toBe(1);
  });
});

describe('statusPollMs', () => {
  it('follows a running timelapse at the pace of its frames, between 1 s and 10 s', () => {
    expect(statusPollMs(state({}), NOW)).toBe(10_000);
    expect(statusPollMs(state({ config: { ...config, frequency: 2 } }), NOW)).toBe(2000);
    expect(statusPollMs(state({ config: { ...config, frequency: 0.2 } }), NOW)).toBe(1000);
  });

  it('reads every second until the first frame of a new timelapse is in, taken or failed, whatever its pace', () => {
    expect(statusPollMs(state({ metadata: { ...metadata, frames: 0, latest_frame_date: null } }), NOW)).toBe(1000);
    // A camera that fails does not make the page read every second for the whole timelapse.
    expect(statusPollMs(state({ metadata: { ...metadata, frames: 0, failed_frames: 1, latest_frame_date: null } }), NOW)).toBe(10_000);
  });

  it('waits for a video being made for a while, then stops reading', () => {
    expect(statusPollMs(state({ running: false }), NOW)).toBe(3000);
    expect(statusPollMs(state({ running: false }), NOW + 3_600_000)).toBeNull();
    expect(statusPollMs(state({ running: false, metadata: { ...metadata, ready: true } }), NOW)).toBeNull();
    expect(statusPollMs({ running: false, metadata: null, config: null }, NOW)).toBeNull();
  });
});
