/** What one timelapse keeps on disk: its frames (only ever added) and its other files by name (rewritten in place). */
interface Kept {
  frames: number;
  files: Map<string, number>;
}

/**
 * The bytes all timelapses keep under TIMELAPSE_DIR against TIMELAPSE_MAX_BYTES, kept in memory:
 * measured once from the folder at start, then moved by each write and delete, so that no request
 * walks the tree.
 */
export function diskBudget(limitBytes: number) {
  const kept = new Map<string, Kept>();
  let used = 0;

  const of = (id: string): Kept => {
    let entry = kept.get(id);
    if (!entry) kept.set(id, (entry = { frames: 0, files: new Map() }));
    return entry;
  };

  return {
    limitBytes,
    get usedBytes(): number {
      return used;
    },
    /** Nothing more may be kept: the bound is reached (never with no bound, 0). */
    full(): boolean {
      return limitBytes > 0 && used >= limitBytes;
    },
    addFrame(id: string, bytes: number): void {
      of(id).frames += bytes;
      used += bytes;
    },
    /** A file written whole, replacing any earlier version of it. */
    setFile(id: string, name: string, bytes: number): void {
      const entry = of(id);
      used += bytes - (entry.files.get(name) ?? 0);
      entry.files.set(name, bytes);
    },
    /** The timelapse's folder is gone. */
    forget(id: string): void {
      const entry = kept.get(id);
      if (!entry) return;
      kept.delete(id);
      used -= entry.frames;
      for (const bytes of entry.files.values()) used -= bytes;
    },
  };
}

export type DiskBudget = ReturnType<typeof diskBudget>;

/** "1.5 GiB", for messages an operator reads. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}
