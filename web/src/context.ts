import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { DashboardSettings, Prototype } from './api/types';
import type { Preferences } from './state/prefs';

/** What every page needs to know about the session and the chosen prototype. */
export interface DashboardContext {
  settings: DashboardSettings;
  prefs: Preferences;
  prototype: Prototype;
  prototypes: Prototype[];
  /** The token allows writes (always true in open mode). */
  canModify: boolean;
  /** The tank list changed (created, renamed, deleted): read it again, then show `choose` if given. */
  tanksChanged: (choose?: number) => Promise<void>;
}

export const Dashboard = createContext<DashboardContext | null>(null);

export function useDashboard(): DashboardContext {
  const value = useContext(Dashboard);
  if (!value) throw new Error('useDashboard outside the dashboard');
  return value;
}
