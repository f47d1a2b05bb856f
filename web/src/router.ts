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
] as const;
export type PageId = (typeof PAGES)[number]['id'];

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
