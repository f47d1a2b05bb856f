import type { ComponentChildren } from 'preact';

interface Section {
  id: string;
  title: string;
}

/**
 * Links to the sections of a long page. The URL fragment names the page (router.ts), so a link
 * moves focus to the section's heading itself instead of changing the fragment; a folded
 * section opens first.
 */
export function SectionLinks({ sections }: { sections: Section[] }) {
  const go = (event: Event, id: string) => {
    event.preventDefault();
    const heading = document.getElementById(id);
    const details = heading?.closest('details');
    if (details) details.open = true;
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  };
  return (
    <nav class="section-links" aria-label="Sections">
      {sections.map((section) => (
        <a key={section.id} href={`#${section.id}`} onClick={(e) => go(e, section.id)}>
          {section.title}
        </a>
      ))}
    </nav>
  );
}

/** A section a phone user can fold away: open at first, its heading is the toggle. */
export function SettingsSection({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <details class="settings-section" open data-section={id}>
      <summary>
        <h2 id={id} tabIndex={-1}>
          {title}
        </h2>
      </summary>
      {children}
    </details>
  );
}
