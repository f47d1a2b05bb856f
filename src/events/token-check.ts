import type { Store } from '../store/index.js';
import type { StreamRegistry } from './streams.js';
import type { Logger } from '../core/logger.js';
import type { Timers } from '../core/timers.js';

export interface TokenCheckDeps {
  streams: Pick<StreamRegistry, 'holders' | 'endUnless'>;
  users: Pick<Store['users'], 'tokenStates'>;
  deviceTokens: Pick<Store['deviceTokens'], 'existing'>;
  timers: Timers;
  everyMs: number;
  log: Logger;
}

/**
 * Every `everyMs`, reads the users whose tokens hold event streams open and ends the streams whose
 * token no longer passes: revoked, its user removed, or the permission the stream needs taken
 * away. These changes can come from outside the service (the users command line writes the store
 * directly), so no event tells of them; a logout or revocation through the service ends its
 * streams at once instead.
 */
export function streamTokenCheck({ streams, users, deviceTokens, timers, everyMs, log }: TokenCheckDeps) {
  let timer: unknown;
  let stopped = false;

  async function check(): Promise<void> {
    const userIds = streams.holders();
    if (userIds.length === 0) return;
    const current = await users.tokenStates(userIds);
    const tokenIds: number[] = [];
    streams.endUnless((holder) => {
      if (holder.tokenId !== undefined) tokenIds.push(holder.tokenId);
      return true;
    });
    const devices = await deviceTokens.existing(tokenIds);
    streams.endUnless((holder) => {
      const user = current.get(holder.userId);
      return (
        user !== undefined &&
        user.generation === holder.generation &&
        (holder.sessionGeneration === undefined || user.sessionGeneration === holder.sessionGeneration) &&
        (holder.tokenId === undefined || devices.has(holder.tokenId)) &&
        (user.permissions & holder.requires) !== 0
      );
    });
  }

  function schedule(): void {
    timer = timers.set(() => {
      check()
        .catch((error: unknown) => log.warn({ err: error }, 'could not check the tokens of the event streams'))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, everyMs);
  }

  return {
    start: schedule,
    stop(): void {
      stopped = true;
      timers.clear(timer);
    },
  };
}
