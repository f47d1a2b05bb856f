export type StoreKind = 'sqlite' | 'postgres';

/** The few value conversions that differ between the two stores, kept in one place. */
export interface Dialect {
  kind: StoreKind;
  /** A timestamp (epoch ms) as the store's driver wants it bound. */
  time(ms: number): number | Date;
  /** A boolean as the store's driver wants it bound. */
  bool(value: boolean): boolean | number;
}

export function dialectFor(kind: StoreKind): Dialect {
  return kind === 'sqlite'
    ? { kind, time: (ms) => ms, bool: (value) => (value ? 1 : 0) }
    : { kind, time: (ms) => new Date(ms), bool: (value) => value };
}
