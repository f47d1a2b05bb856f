/**
 * Whether this instance hears the changes the others commit (the PostgreSQL relay). While it does
 * not, what it keeps may be out of date — another instance may have claimed a dose it has not
 * heard of — so it claims none (`store_unavailable`) until the link is back and what it keeps has
 * been read again. A store of one process has no relay: always up.
 */
export function relayLink() {
  let up = true;
  return {
    up: () => up,
    /** The listening connection failed or stopped answering. */
    lost(): void {
      up = false;
    },
    /** Listening again, and what is kept was dropped to be read again. */
    restored(): void {
      up = true;
    },
  };
}

export type RelayLink = ReturnType<typeof relayLink>;
