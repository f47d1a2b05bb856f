import { Counter, Gauge, type Registry } from 'prom-client';
import { serviceAlerts } from '../alerts/service-alerts.js';
import type { Config } from '../config/index.js';
import type { ChangeBus } from '../core/bus.js';
import { systemTimers, type Timers } from '../core/timers.js';
import type { App } from '../http/app-type.js';
import type { Store } from '../store/index.js';
import { type GoodBackup, goodBackups, prune, removePartials } from './folder.js';
import { makeBackup } from './make.js';
import { assertStoreOutsideBackups, storeFilesOf } from './store-files.js';
import { isOverdue, nextBackupAt, OVERDUE_GRACE_MS } from './names.js';

/** What /healthz shows of the backups: the newest good one, and whether all is well. */
export interface BackupStatus {
  at: string | null;
  bytes: number | null;
  /** False after a failed backup, or while none is good for longer than BACKUP_EVERY and a grace. */
  ok: boolean;
}

export interface BackupOptions {
  timers?: Timers;
  /** How soon after start a due backup runs (default 2 s: the service answers first). */
  soonMs?: number;
}

export interface BackupDeps {
  config: Pick<Config, 'databaseUrl' | 'backupDir' | 'backupEveryMs' | 'backupKeep' | 'alertWebhookUrls'>;
  store: Store;
  bus: ChangeBus;
  now: () => number;
  metrics: { registry: Registry };
  /** The backups' timers (tests move time themselves). */
  backupOptions?: BackupOptions;
}

/** At most one progress line per this long (and the first step's). */
const PROGRESS_LOG_MS = 1000;

/**
 * Checked backups (docs/api.md §16): one soon after start when the newest good backup is older than
 * BACKUP_EVERY (or there is none), then one every BACKUP_EVERY; on PostgreSQL one instance at a
 * time. A failed or overdue backup raises the `backup` alert, a good one clears it. Off (undefined)
 * without BACKUP_DIR.
 */
export async function register(app: App, deps: BackupDeps): Promise<{ status: () => BackupStatus | null } | undefined> {
  const { config, store, bus, now } = deps;
  const { registry } = deps.metrics;
  const options = deps.backupOptions ?? {};
  const dir = config.backupDir;
  if (dir === undefined) return undefined;
  // A store kept under a backup's name would be deleted by rotation: the start is refused.
  assertStoreOutsideBackups(config.databaseUrl, dir);
  const storeFiles = storeFilesOf(config.databaseUrl);
  const log = app.log.child({ backup_dir: dir });
  const timers = options.timers ?? systemTimers;
  const soonMs = options.soonMs ?? 2000;
  const alerts = serviceAlerts({ store, bus, now, webhookUrls: config.alertWebhookUrls });
  const failures = new Counter({
    name: 'sensorhub_backup_failures_total',
    help: 'Backups that failed (written or checked), since start.',
    registers: [registry],
  });
  const state = {
    startedAt: now(),
    newest: undefined as GoodBackup | undefined,
    lastAttemptAt: undefined as number | undefined,
    lastFailed: false,
    running: undefined as Promise<void> | undefined,
    timer: undefined as unknown,
    stopped: false,
  };
  new Gauge({
    name: 'sensorhub_backup_last_success_timestamp_seconds',
    help: 'When the newest good backup was made (Unix seconds; 0: none).',
    registers: [registry],
    collect() {
      this.set(state.newest ? state.newest.at / 1000 : 0);
    },
  });
  new Gauge({
    name: 'sensorhub_backup_last_success_bytes',
    help: 'The size of the newest good backup (0: none).',
    registers: [registry],
    collect() {
      this.set(state.newest?.bytes ?? 0);
    },
  });

  const overdue = () => isOverdue(state.newest?.at, state.startedAt, now(), config.backupEveryMs);

  async function attempt(): Promise<void> {
    const at = now();
    state.lastAttemptAt = at;
    let lastProgress = 0;
    const started = Date.now();
    log.info({ store: store.kind }, 'backup started');
    try {
      const made = await store.exclusively('backup', () =>
        makeBackup(store, { dir: dir as string }, at, ({ part, copied, total }) => {
          if (lastProgress !== 0 && Date.now() - lastProgress < PROGRESS_LOG_MS) return;
          lastProgress = Date.now();
          log.info({ part, copied, total }, 'backup progress');
        }),
      );
      if (!made) {
        log.info('backup skipped: another instance is making one');
        return;
      }
      state.newest = { file: made.file, at: made.at, bytes: made.bytes };
      state.lastFailed = false;
      log.info({ file: made.file, bytes: made.bytes, rows: made.counts, ms: Date.now() - started }, 'backup written and checked');
      const removed = prune(dir as string, config.backupKeep, storeFiles.holds);
      if (removed.length > 0) log.info({ removed, keep: config.backupKeep }, 'old backups removed');
      await alerts.clear('backup');
    } catch (error) {
      state.lastFailed = true;
      failures.inc();
      log.error({ err: error }, 'backup failed');
      await alerts.raise('backup', 'critical');
    }
  }

  async function tick(): Promise<void> {
    state.timer = undefined;
    try {
      // Another instance may have written to a shared folder meanwhile.
      state.newest = goodBackups(dir as string)[0] ?? state.newest;
      const dueAt = nextBackupAt(state.newest?.at, state.lastAttemptAt, state.startedAt, config.backupEveryMs, soonMs);
      if (now() >= dueAt) await attempt();
      if (overdue()) {
        const raised = await alerts.raise('backup', 'critical');
        if (raised) log.error({ newest: state.newest?.file ?? null }, 'backup overdue');
      }
    } catch (error) {
      log.error({ err: error }, 'backup check failed');
    }
    schedule();
  }

  function schedule(): void {
    if (state.stopped) return;
    const dueAt = nextBackupAt(state.newest?.at, state.lastAttemptAt, state.startedAt, config.backupEveryMs, soonMs);
    const overdueAt = (state.newest?.at ?? state.startedAt) + config.backupEveryMs + OVERDUE_GRACE_MS + 1;
    const wakeAt = overdue() ? dueAt : Math.min(dueAt, overdueAt);
    state.timer = timers.set(() => {
      state.running = tick();
    }, wakeAt - now());
  }

  app.addHook('onReady', async () => {
    const stale = removePartials(dir, { isStore: storeFiles.holds, ownIsStale: true });
    if (stale.length > 0) log.warn({ removed: stale }, 'removed what an interrupted backup left');
    state.newest = goodBackups(dir)[0];
    schedule();
  });
  app.addHook('preClose', async () => {
    state.stopped = true;
    if (state.timer !== undefined) timers.clear(state.timer);
    await state.running;
  });

  return {
    status(): BackupStatus | null {
      const ok = !state.lastFailed && !overdue();
      if (!state.newest) return state.lastFailed ? { at: null, bytes: null, ok } : null;
      return { at: new Date(state.newest.at).toISOString(), bytes: state.newest.bytes, ok };
    },
  };
}
