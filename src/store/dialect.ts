export type StoreKind = 'sqlite' | 'postgres';

/** The few value conversions that differ between the two stores, kept in one place. */
export interface Dialect {
  kind: StoreKind;
  /** A timestamp (epoch ms) as the store's driver wants it bound. */
  time(ms: number): number | Date;
  /**
   * The same as `time`, typed as the column's read type (epoch ms) so it fits in comparisons;
   * on PostgreSQL it really is a Date bound against timestamptz.
   */
  at(ms: number): number;
  /** A boolean as the store's driver wants it bound. */
  bool(value: boolean): boolean | number;
}

export function dialectFor(kind: StoreKind): Dialect {
  return kind === 'sqlite'
    ? { kind, time: (ms) => ms, at: (ms) => ms, bool: (value) => (value ? 1 : 0) }
    : { kind, time: (ms) => new Date(ms), at: (ms) => new Date(ms) as unknown as number, bool: (value) => value };
}
