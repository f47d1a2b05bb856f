import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { whenUnauthorized } from './api/client';
import { api } from './api/endpoints';
import type { DashboardSettings, Prototype } from './api/types';
import { AddNoteButton } from './components/add-note';
import { CriticalAlerts } from './components/critical-alerts';
import { NewTankButton, NewTankForm } from './components/new-tank';
import { Dashboard } from './context';
import { PERMISSION } from './domain/permissions';
import { tokenPermissions, tokenUsername } from './domain/session-token';
import { zoneLabel } from './domain/local-time';
import { AlertsPage } from './pages/alerts';
import { CameraPage } from './pages/camera';
import { ChartsPage } from './pages/charts';
import { DataPage } from './pages/data';
import { JournalPage } from './pages/journal';
import { LoginPage } from './pages/login';
import { OverviewPage } from './pages/overview';
import { SettingsPage } from './pages/settings';
import { UsersPage } from './pages/users';
import { NotificationsPage } from './pages/notifications';
import { ADMIN_PAGES, hrefOf, PAGES, type PageId, SERVICE_PAGES, useRoute } from './router';
import { useActiveAlerts } from './state/active-alerts';
import { usePreferences } from './state/prefs';
import { storedToken, storeToken } from './state/session';
import { useSessionRefresh } from './state/session-refresh';

const PROTOTYPE_KEY = 'sensorhub.prototype';

export function App() {
  const [settings, setSettings] = useState<DashboardSettings | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [token, setToken] = useState(storedToken);
  /** Why the login page is back, when the service ended the session rather than the grower. */
  const [signedOut, setSignedOut] = useState<string | null>(null);
  const [prefs, setPrefs] = usePreferences();
  const page = useRoute();
  useSessionRefresh(token, setToken);

  useEffect(() => {
    api.settings().then(setSettings, (error: Error) => setFailure(error.message));
    whenUnauthorized(() => {
      storeToken(null);
      setToken(null);
      setSignedOut('You were signed out: logged out elsewhere, a new password, or the session ran its time. Sign in again.');
    });
  }, []);

  if (failure) return <Problem message={`The service did not answer: ${failure}`} />;
  if (!settings) return <p class="loading">Loading…</p>;

  const enforced = settings.auth_mode === 'enforced';
  if (enforced && !token) {
    return (
      <LoginPage
        needsFirstAdmin={settings.needs_first_admin === true}
        notice={signedOut}
        onFirstAdminExists={() => setSettings({ ...settings, needs_first_admin: false })}
        onToken={(value) => {
          storeToken(value);
          setToken(value);
          setSignedOut(null);
        }}
      />
    );
  }

  const permissions = tokenPermissions(token ?? '');
  const canModify = !enforced || (permissions & PERMISSION.modify) !== 0;
  const isAdmin = !enforced || (permissions & PERMISSION.admin) !== 0;
  const logout = async () => {
    // Ends this user's password sessions only: device tokens keep working. The token is forgotten
    // even when the service cannot be told (it expires on its own).
    await api.logout().catch(() => {});
    storeToken(null);
    setToken(null);
  };
  /** The signed-in user's own permissions, password or account changed: a fresh token says what is left (a 401 signs out). */
  const sessionChanged = async () => {
    const reply = await api.refreshToken().catch(() => null);
    if (!reply) return;
    storeToken(reply.access_token);
    setToken(reply.access_token);
  };

  return (
    <Shell
      page={page}
      settings={settings}
      canModify={canModify}
      isAdmin={isAdmin}
      service={
        page === 'users' ? (
          <UsersPage allowed={isAdmin} open={!enforced} me={enforced ? tokenUsername(token) : null} onOwnAccountChanged={sessionChanged} />
        ) : page === 'notifications' ? (
          <NotificationsPage allowed={isAdmin} />
        ) : undefined
      }
      theme={prefs.theme}
      onTheme={() => setPrefs({ theme: prefs.theme === 'dark' ? 'light' : 'dark' })}
      onLogout={enforced ? logout : undefined}
    >
      {(prototype, prototypes, tanksChanged) => (
        // Keyed by the tank: a switch starts every page afresh, so nothing read for one tank is
        // ever drawn against another's sensors.
        <Dashboard.Provider key={prototype.prototype_id} value={{ settings, prefs, prototype, prototypes, canModify, tanksChanged }}>
          {page === 'overview' && <OverviewPage />}
          {page === 'alerts' && <AlertsPage />}
          {page === 'charts' && <ChartsPage />}
          {page === 'journal' && <JournalPage />}
          {page === 'settings' && <SettingsPage onPreferences={setPrefs} />}
          {page === 'camera' && <CameraPage />}
          {page === 'data' && <DataPage />}
        </Dashboard.Provider>
      )}
    </Shell>
  );
}

interface ShellProps {
  page: PageId;
  settings: DashboardSettings;
  canModify: boolean;
  /** The token may manage users (always in open mode, where the page says how): the Users & devices page is in the navigation. */
  isAdmin: boolean;
  /** The content of a page about the whole service (router.ts SERVICE_PAGES), shown whatever the tanks. */
  service?: ComponentChildren;
  theme: 'light' | 'dark';
  onTheme: () => void;
  onLogout?: () => void;
  children: (prototype: Prototype, prototypes: Prototype[], tanksChanged: (choose?: number) => Promise<void>) => ComponentChildren;
}

/** Header, navigation, access notice and the prototype picker around the current page. */
function Shell({ page, settings, canModify, isAdmin, service, theme, onTheme, onLogout, children }: ShellProps) {
  const [prototypes, setPrototypes] = useState<Prototype[] | null>(null);
  const [chosen, setChosen] = useState(() => Number(localStorage.getItem(PROTOTYPE_KEY) ?? 0));
  const [failure, setFailure] = useState<string | null>(null);

  const choose = (id: number) => {
    localStorage.setItem(PROTOTYPE_KEY, String(id));
    setChosen(id);
  };
  const tanksChanged = async (show?: number) => {
    try {
      setPrototypes(await api.prototypes());
      setFailure(null);
      if (show !== undefined) choose(show);
    } catch (error) {
      setFailure((error as Error).message);
    }
  };
  useEffect(() => void tanksChanged(), []);

  const prototype = prototypes?.find((p) => p.prototype_id === chosen) ?? prototypes?.[0];

  const label = PAGES.find((p) => p.id === page)?.label ?? '';
  const servicePage = SERVICE_PAGES.includes(page);
  const shown = (id: PageId) => (id !== 'alerts' || settings.features?.alerts) && (isAdmin || !ADMIN_PAGES.includes(id));
  const active = useActiveAlerts(settings.features?.alerts ?? false);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            ◉
          </span>{' '}
          sensorhub
        </div>
        {prototypes && prototypes.length > 0 && (
          <div class="picker">
            <label>
              <span>Tank</span>
              <select value={prototype?.prototype_id} onChange={(e) => choose(Number(e.currentTarget.value))}>
                {prototypes.map((p) => (
                  <option key={p.prototype_id} value={p.prototype_id}>
                    {p.prototype_name}
                  </option>
                ))}
              </select>
            </label>
            {canModify && <NewTankButton prototypes={prototypes} onCreated={(created) => void tanksChanged(created.prototype_id)} />}
          </div>
        )}
        <div class="top-actions">
          {prototype && canModify && <AddNoteButton key={prototype.prototype_id} prototype={prototype} />}
          <button type="button" class="ghost" onClick={onTheme} aria-pressed={theme === 'dark'}>
            {theme === 'dark' ? 'Light theme' : 'Dark theme'}
          </button>
          {onLogout && (
            <button type="button" class="ghost" onClick={onLogout}>
              Log out
            </button>
          )}
        </div>
        <nav aria-label="Pages" class="tabs">
          {PAGES.filter((p) => shown(p.id)).map((p) => (
            <a key={p.id} href={hrefOf(p.id)} aria-current={p.id === page ? 'page' : undefined}>
              {p.label}
              {p.id === 'alerts' && active.length > 0 && (
                <span class="tab-count" data-active-alerts={active.length}>
                  {' '}
                  <span aria-hidden="true">{active.length}</span>
                  <span class="visually-hidden">, {active.length} active</span>
                </span>
              )}
            </a>
          ))}
        </nav>
      </header>
      <CriticalAlerts
        alerts={active}
        prototypes={prototypes ?? []}
        listedTank={page === 'overview' ? prototype?.prototype_id : undefined}
        onShow={(id) => {
          if (id !== null) choose(id);
          location.hash = hrefOf(id === null ? 'alerts' : 'overview');
        }}
      />
      {/* A landmark of its own, so that nothing on the page sits outside one. */}
      {settings.auth_mode === 'open' && (
        <aside aria-label="Access">
          <p class="notice" role="note">
            Open access: anyone on this network can change these settings. Set <code>AUTH_MODE=enforced</code> to require a login.
          </p>
        </aside>
      )}
      {settings.auth_mode === 'enforced' && !canModify && (
        <aside aria-label="Access">
          <p class="notice" role="note">
            Signed in with read-only access: settings, data generation and changes are disabled.
          </p>
        </aside>
      )}
      <main id="main" tabIndex={-1}>
        <h1 class="page-title">
          {label}
          {prototype && !servicePage && <span class="muted"> · {prototype.prototype_name}</span>}
        </h1>
        {servicePage && service}
        {failure && !servicePage && <Problem message={`Could not load the prototypes: ${failure}`} />}
        {prototypes && !prototype && !servicePage && (
          <section class="card empty-start" aria-labelledby="first-tank">
            <h2 id="first-tank">Create your first tank</h2>
            <p>A tank groups the sensors that watch one nutrient solution and the pumps that correct it.</p>
            {canModify ? (
              <NewTankForm prototypes={prototypes} onCreated={(created) => void tanksChanged(created.prototype_id)} />
            ) : (
              <p class="muted">Ask someone with the “modify” permission to create one.</p>
            )}
          </section>
        )}
        {prototypes && prototype && !servicePage && children(prototype, prototypes, tanksChanged)}
      </main>
      <footer class="zone-note muted">Times are in this browser's time zone: {zoneLabel(Date.now())}.</footer>
    </>
  );
}

function Problem({ message }: { message: string }) {
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}
