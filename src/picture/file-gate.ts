import { CameraUnavailable } from './errors.js';

/**
 * File captures of the whole process, one at a time. Each filesystem call occupies a thread of
 * libuv's pool (four by default, shared with password hashing) until the kernel answers, and a
 * call on a hung network mount never returns: a request can give up at its time limit, the call
 * cannot be cancelled. Letting captures run one after another, and never starting a new one while
 * an old one has not returned, bounds the damage to a single thread of the pool.
 */
export class FileGate {
  private running: { settled: Promise<void>; startedAt: number; limitMs: number; overdue: boolean } | undefined;

  constructor(private readonly clock: () => number = Date.now) {}

  /**
   * Runs `work` once the gate is free, answering within `timeoutMs` in all cases: waiting for an
   * earlier capture counts against the limit, and one that is still not done by then is a failure
   * (the work is then never started). Work that runs over keeps the gate until it returns.
   */
  async run<T>(work: () => Promise<T>, timeoutMs: number, what: string): Promise<T> {
    const deadline = this.clock() + timeoutMs;
    while (this.running) {
      const left = deadline - this.clock();
      if (left <= 0 || !(await settlesWithin(this.running.settled, left))) {
        throw new CameraUnavailable(`${what}: an earlier file read has not returned`);
      }
    }
    const result = work();
    const entry = { settled: result.then(noop, noop), startedAt: this.clock(), limitMs: timeoutMs, overdue: false };
    this.running = entry;
    void entry.settled.then(() => {
      if (this.running === entry) this.running = undefined;
    });
    if (!(await settlesWithin(entry.settled, deadline - this.clock()))) {
      // Given up at its limit: stuck from now on, even where the clock shows the limit just reached.
      entry.overdue = true;
      throw new CameraUnavailable(`${what}: not read within ${timeoutMs} ms`);
    }
    return result;
  }

  /** A capture has run past its time limit and still not returned (a hung mount, a blocked device). */
  stuck(): boolean {
    const running = this.running;
    return running !== undefined && (running.overdue || this.clock() - running.startedAt > running.limitMs);
  }
}

const noop = () => {};

function settlesWithin(settled: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  return Promise.race([settled.then(() => true), late]).finally(() => clearTimeout(timer));
}

/** The one gate every file capture of the process goes through (the picture route's, a timelapse's). */
export const fileGate = new FileGate();
