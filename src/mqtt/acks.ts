/**
 * The PUBACK of a QoS 1 message with success and no properties: MQTT 5 lets both the reason
 * code and the property length be left out then (remaining length 2), as MQTT 3.1.1 has it.
 */
function writePubacks(ids: readonly number[]): Buffer {
  const bytes = Buffer.allocUnsafe(4 * ids.length);
  ids.forEach((id, index) => {
    bytes[4 * index] = 0x40;
    bytes[4 * index + 1] = 2;
    bytes.writeUInt16BE(id, 4 * index + 2);
  });
  return bytes;
}

/** One received message waiting for its acknowledgement. */
export interface PendingAck {
  settled: boolean;
  /** False: the message stays unacknowledged, so the broker delivers it again in the next connection. */
  acknowledge: boolean;
  readonly messageId: number;
}

/**
 * The acknowledgements of one connection's QoS 1 messages, held until each message is handled
 * and sent in the order the messages came (MQTT requires acknowledgements in that order): a
 * message handled early waits for those before it. Those that become due together leave in one
 * write. `write` answers false when the connection is gone: nothing more is sent on it, and the
 * broker delivers whatever was not acknowledged again in the session's next connection.
 */
export function orderedAcks(write: (bytes: Buffer) => boolean) {
  const queue: PendingAck[] = [];
  let head = 0;
  let open = true;
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const due: number[] = [];
    while (head < queue.length && queue[head].settled) {
      const entry = queue[head++];
      if (entry.acknowledge) due.push(entry.messageId);
    }
    // Compact now and then rather than shifting at every acknowledgement.
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    if (due.length > 0 && open) open = write(writePubacks(due));
  }

  return {
    /** A message received: its acknowledgement takes the next place in line. */
    received(messageId: number): PendingAck {
      const entry: PendingAck = { settled: false, acknowledge: false, messageId };
      queue.push(entry);
      return entry;
    },
    /** The message is handled: acknowledged (`acknowledge`) or left for redelivery. */
    settle(entry: PendingAck, acknowledge: boolean): void {
      entry.settled = true;
      entry.acknowledge = acknowledge;
      // Once the promise callbacks of this turn have run: the messages of one commit settle together.
      if (!scheduled) {
        scheduled = true;
        process.nextTick(flush);
      }
    },
    /** Sends what is due now rather than at the end of this turn (the connection is about to close). */
    flush,
    /** Messages received and not yet settled. */
    waiting: () => queue.length - head,
  };
}

export type OrderedAcks = ReturnType<typeof orderedAcks>;
