import { describe, expect, it } from 'vitest';
import { orderedAcks } from '../../src/mqtt/acks.js';

/** The packet ids of the PUBACKs in what was written: each PUBACK is 0x40, 2, then the id in two bytes. */
function pubackIds(writes: Buffer[]): number[][] {
  return writes.map((bytes) => {
    const ids: number[] = [];
    for (let at = 0; at < bytes.length; at += 4) {
      expect([bytes[at], bytes[at + 1]]).toEqual([0x40, 2]);
      ids.push(bytes.readUInt16BE(at + 2));
    }
    return ids;
  });
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('MQTT acknowledgements of one connection', () => {
  it('leave in the order the messages came, a message handled early waiting for those before it', async () => {
    const writes: Buffer[] = [];
    const line = orderedAcks((bytes) => writes.push(bytes) > 0);
    const [first, second, third] = [7, 300, 65535].map((id) => line.received(id));

    line.settle(third, true);
    line.settle(second, true);
    await turn();
    expect(writes).toEqual([]);
    expect(line.waiting()).toBe(3);

    line.settle(first, true);
    await turn();
    // Those that became due together leave in one write.
    expect(pubackIds(writes)).toEqual([[7, 300, 65535]]);
    expect(line.waiting()).toBe(0);
  });

  it('skip a message left unacknowledged (for the broker to deliver again), and acknowledge those after it', async () => {
    const writes: Buffer[] = [];
    const line = orderedAcks((bytes) => writes.push(bytes) > 0);
    const [first, second, third] = [1, 2, 3].map((id) => line.received(id));
    line.settle(first, true);
    await turn();
    line.settle(second, false);
    line.settle(third, true);
    await turn();
    expect(pubackIds(writes)).toEqual([[1], [3]]);
  });

  it('send nothing more once the connection is gone', async () => {
    const writes: Buffer[] = [];
    const line = orderedAcks((bytes) => {
      writes.push(bytes);
      return false;
    });
    const [first, second] = [1, 2].map((id) => line.received(id));
    line.settle(first, true);
    await turn();
    line.settle(second, true);
    line.flush();
    expect(pubackIds(writes)).toEqual([[1]]);
  });

  it('flush at once what is due, for a connection about to close', () => {
    const writes: Buffer[] = [];
    const line = orderedAcks((bytes) => writes.push(bytes) > 0);
    line.settle(line.received(9), true);
    line.flush();
    expect(pubackIds(writes)).toEqual([[9]]);
  });

  it('keep their order over many messages', async () => {
    const writes: Buffer[] = [];
    const line = orderedAcks((bytes) => writes.push(bytes) > 0);
    const entries = Array.from({ length: 5000 }, (_, i) => line.received((i % 65535) + 1));
    // Settled from the last to the first, in several turns.
    for (let i = entries.length - 1; i >= 0; i--) {
      line.settle(entries[i], true);
      if (i % 700 === 0) await turn();
    }
    await turn();
    expect(pubackIds(writes).flat()).toEqual(entries.map((e) => e.messageId));
  });
});
