/** The bounds on open event streams: in all, and per client (a token, or an address). */
export interface StreamBounds {
  maxStreams: number;
  maxPerClient: number;
}

/**
 * Counts the open streams, in all and by client, so that one client cannot take every place and
 * the streams together never take the connections the rest of the API needs. Which bound a new
 * stream would pass is told before it is opened; its place is taken when it opens and given back
 * when it ends.
 */
export function streamPlaces({ maxStreams, maxPerClient }: StreamBounds) {
  const byClient = new Map<string, number>();
  let total = 0;

  return {
    /** Why a new stream of `client` is refused, or undefined when there is room for it. */
    refusal(client: string): string | undefined {
      if (total >= maxStreams) return `Too many event streams open (${maxStreams} at most); try again later`;
      if ((byClient.get(client) ?? 0) >= maxPerClient) {
        return `Too many event streams open for this client (${maxPerClient} at most); close one or try again later`;
      }
      return undefined;
    },

    take(client: string): void {
      total++;
      byClient.set(client, (byClient.get(client) ?? 0) + 1);
    },

    release(client: string): void {
      total--;
      const left = (byClient.get(client) ?? 1) - 1;
      if (left > 0) byClient.set(client, left);
      else byClient.delete(client);
    },

    /** Streams counted now. */
    get total(): number {
      return total;
    },

    /** Clients with a stream open now. */
    get clients(): number {
      return byClient.size;
    },
  };
}

export type StreamPlaces = ReturnType<typeof streamPlaces>;
