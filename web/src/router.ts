import { useEffect, useState } from 'preact/hooks';

/**
 * Pages are addressed by the URL fragment (`/ui/#/charts`), so the service serves one index file
 * and a reload or a bookmark lands on the same page.
 */
export const PAGES = [
  { id: 'overview', label: 'Overview' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'charts', label: 'Charts' },
  { id: 'journal', label: 'Journal' },
  { id: 'settings', label: 'Settings' },
  { id: 'camera', label: 'Camera' },
  { id: 'data', label: 'Data' },
  { id: 'users', label: 'Users & devices' },
  { id: 'notifications', label: 'Notifications' },
] as const;
export type PageId = (typeof PAGES)[number]['id'];

/** Pages about the whole service rather than one tank: shown with no tank chosen, or none created yet. */
export const SERVICE_PAGES: readonly PageId[] = ['users', 'notifications'];
/** Pages in the navigation only for whoever may use them: user administration needs `admin` (docs/api.md §6.1). */
export const ADMIN_PAGES: readonly PageId[] = ['users', 'notifications'];

function current(): PageId {
  const id = location.hash.replace(/^#\/?/, '');
  return PAGES.some((page) => page.id === id) ? (id as PageId) : 'overview';
}

export function useRoute(): PageId {
  const [page, setPage] = useState(current);
  useEffect(() => {
    const onChange = () => setPage(current());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return page;
}

export const hrefOf = (page: PageId) => `#/${page}`;
