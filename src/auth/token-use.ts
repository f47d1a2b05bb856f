/**
 * When each device token was last used, to within a minute (docs/api.md §6.1), without a write per
 * request: a use is noted in memory at most once a minute per token, and the notes are written
 * in one batch every `flushEveryMs` (and on close). A list of tokens merges the notes not yet
 * written, so what it shows is never more than a minute behind on this instance.
 */
export const USE_RESOLUTION_MS = 60_000;

export function tokenUseNotes() {
  /** The newest noted use of each token since the last batch. */
  let pending = new Map<number, number>();
  /** The last use noted per token (also after its batch), so a minute's uses make one note. */
  const noted = new Map<number, number>();

  return {
    note(tokenId: number, at: number): void {
      const last = noted.get(tokenId);
      if (last !== undefined && at - last < USE_RESOLUTION_MS && at >= last) return;
      noted.set(tokenId, at);
      pending.set(tokenId, at);
    },

    /** The notes to write, handed over once. */
    take(): Map<number, number> {
      const batch = pending;
      pending = new Map();
      // Only tokens used in the last minute need remembering to throttle their notes.
      if (noted.size > 10_000) noted.clear();
      return batch;
    },

    /** A noted use not yet written, or undefined. */
    pendingFor(tokenId: number): number | undefined {
      return pending.get(tokenId);
    },

    /** Forgets a revoked token. */
    forget(tokenId: number): void {
      pending.delete(tokenId);
      noted.delete(tokenId);
    },
  };
}

export type TokenUseNotes = ReturnType<typeof tokenUseNotes>;
