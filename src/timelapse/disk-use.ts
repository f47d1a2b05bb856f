import type { DiskBudget } from './disk-budget.js';
import { formatBytes } from './disk-budget.js';
import type { TimelapseFolder } from './folder.js';

/**
 * What the timelapses keep on disk: the folder is measured once, at the first need; every write
 * and delete after that moves the budget.
 */
export function diskUse(folder: Pick<TimelapseFolder, 'use'>, budget: DiskBudget) {
  let measured: Promise<void> | undefined;
  return {
    measure: () =>
      (measured ??= folder.use().then((uses) => {
        for (const use of uses) {
          budget.addFrame(use.id, use.frames);
          for (const [name, bytes] of use.files) budget.setFile(use.id, name, bytes);
        }
      })),
    /** The use in words, for the messages. */
    described: () => `${formatBytes(budget.usedBytes)} (${budget.usedBytes} bytes)`,
  };
}
