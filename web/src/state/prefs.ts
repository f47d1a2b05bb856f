import { useEffect, useState } from 'preact/hooks';
import type { UnitPreferences } from '../domain/units';

/** Per-browser choices, kept in localStorage so they survive a reload. */
export interface Preferences extends UnitPreferences {
  theme: 'light' | 'dark';
}

const KEY = 'sensorhub.preferences';

function initial(): Preferences {
  const defaults: Preferences = {
    temperature: '°C',
    conductivity: 'mS/cm',
    theme: window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  };
  try {
    return { ...defaults, ...(JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Preferences>) };
  } catch {
    return defaults;
  }
}

export function usePreferences(): [Preferences, (change: Partial<Preferences>) => void] {
  const [prefs, setPrefs] = useState(initial);
  useEffect(() => {
    localStorage.setItem(KEY, JSON.stringify(prefs));
    document.documentElement.dataset.theme = prefs.theme;
  }, [prefs]);
  return [prefs, (change) => setPrefs((current) => ({ ...current, ...change }))];
}
