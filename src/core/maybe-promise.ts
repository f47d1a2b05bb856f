import type { MaybePromise } from '../store/index.js';

/** Whether a value answered at once or later: the hot paths answer without a promise when they can. */
export const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> => typeof (value as Promise<T>)?.then === 'function';
