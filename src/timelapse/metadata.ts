import type { Logger } from '../core/logger.js';
import { reason } from '../picture/errors.js';
import type { DiskBudget } from './disk-budget.js';
import type { TimelapseFolder } from './folder.js';
import type { TimelapseRecord } from './record.js';

export const METADATA = 'metadata.json';

export interface MetadataWriterDeps {
  folder: Pick<TimelapseFolder, 'writeRecord'>;
  budget: Pick<DiskBudget, 'setFile'>;
  log: Logger;
  /** False once the timelapse is deleted: its folder is gone for good. */
  kept(id: string): boolean;
}

/** The metadata.json writes of every timelapse, chained per timelapse so that they land in order. */
export function metadataWriter({ folder, budget, log, kept }: MetadataWriterDeps) {
  /** The latest write of each timelapse. */
  const saves = new Map<string, Promise<void>>();
  return {
    /** Writes what the record holds now; a failure is logged, never thrown. */
    save(record: TimelapseRecord): Promise<void> {
      // Deleted meanwhile (a stop or an end that crossed a delete).
      if (!kept(record.id)) return Promise.resolve();
      const snapshot = { ...record };
      const next = (saves.get(record.id) ?? Promise.resolve())
        .then(() => folder.writeRecord(snapshot))
        .then((bytes) => budget.setFile(record.id, METADATA, bytes))
        .catch((error: unknown) => log.error({ timelapse: record.id, reason: reason(error) }, 'timelapse metadata not written'));
      saves.set(record.id, next);
      return next;
    },
    /** Waits for the writes of a deleted timelapse, then forgets them. */
    async forget(id: string): Promise<void> {
      await saves.get(id);
      saves.delete(id);
    },
    /** Resolves once every write queued so far has landed. */
    async settled(): Promise<void> {
      await Promise.all(saves.values());
    },
  };
}

export type MetadataWriter = ReturnType<typeof metadataWriter>;
