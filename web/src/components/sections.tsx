import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface SectionLink {
  /** The id of the element a link moves focus to. */
  id: string;
  title: string;
  /** Read after the title by screen readers only: "thresholds" after "pH #2". */
  hint?: string;
}

export interface Section extends SectionLink {
  /** Links into the section: each sensor's thresholds, each actuator. */
  items?: SectionLink[];
}

/**
 * Moves to an element of the page: opens every folded section around it, scrolls it to the top
 * and gives it focus, so the next Tab is inside it. The URL fragment names the page (router.ts),
 * so links call this instead of changing the fragment.
 */
export function reveal(id: string): void {
  const target = document.getElementById(id);
  if (!target) return;
  for (let fold = target.closest('details'); fold; fold = fold.parentElement?.closest('details') ?? null) fold.open = true;
  target.scrollIntoView({ block: 'start' });
  target.focus({ preventScroll: true });
}

function JumpLink({ link }: { link: SectionLink }) {
  return (
    <a
      href={`#${link.id}`}
      onClick={(event) => {
        event.preventDefault();
        reveal(link.id);
      }}
    >
      {link.title}
      {link.hint && <span class="visually-hidden"> {link.hint}</span>}
    </a>
  );
}

/** Links to the sections of a long page and to the items within them: a sensor's thresholds without tabbing through every field above. */
export function SectionLinks({ sections }: { sections: Section[] }) {
  return (
    <nav class="section-links" aria-label="Sections">
      <ul>
        {sections.map((section) => (
          <li key={section.id}>
            <JumpLink link={section} />
            {section.items && section.items.length > 0 && (
              <ul aria-label={section.title}>
                {section.items.map((item) => (
                  <li key={item.id}>
                    <JumpLink link={item} />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A section of the page that can be folded away: open at first, its heading is the toggle. */
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

/**
 * One sensor or actuator of a section, foldable: its name and a one-line summary stay when it is
 * folded (on a phone it starts folded, so the page is a list to choose from, not every field).
 * `open` is how it starts; from then on the grower folds and unfolds it (a save does not).
 */
export function SettingsItem({
  id,
  title,
  summary,
  open,
  children,
}: {
  id: string;
  title: string;
  summary?: string;
  open: boolean;
  children: ComponentChildren;
}) {
  const [initiallyOpen] = useState(open);
  return (
    <details class="card settings-item" open={initiallyOpen} data-item={id}>
      <summary id={id}>
        <h3>{title}</h3>
        {summary && <span class="item-summary muted">{summary}</span>}
      </summary>
      {children}
    </details>
  );
}
