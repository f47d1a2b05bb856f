/**
 * Resolves once the promise `current()` answers has settled and is still the one it answers: the
 * work a chain of promises was asked for so far is done, and so is the work that work queued.
 * A watcher's `idle()` (tests wait on it).
 */
export async function settled(current: () => Promise<unknown>): Promise<void> {
  let last: Promise<unknown> | undefined;
  while (last !== current()) {
    last = current();
    await last;
  }
}
