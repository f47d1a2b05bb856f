/** Rows per table, as counted in one snapshot. */
export type TableCounts = Record<string, number>;

/** How far a backup is: pages of a SQLite copy, or rows of one table of a PostgreSQL copy. */
export interface BackupProgress {
  (progress: { part: string; copied: number; total: number }): void;
}
