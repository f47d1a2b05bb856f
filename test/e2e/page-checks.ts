import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeViolation } from './browser.js';

/** The smallest tap target a finger hits reliably, in CSS pixels (WCAG 2.5.5, Apple's and Google's guides). */
export const TAP_TARGET_PX = 44;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Every axe-core violation on the page, of any impact: "clean" means none at all. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: an inline <script> is refused by the page's CSP.
  await page.evaluate(axeSource);
  const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((result) => result.violations)');
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The controls a finger taps that are smaller than 44 × 44 px: buttons, fields, fold toggles and
 * links that stand alone (a link inside a sentence is exempt). A checkbox counts with its label,
 * which toggles it too. Hidden controls (a folded section's) are left out.
 */
export async function smallTapTargets(page: Page): Promise<string[]> {
  // A string: this file is type-checked without the DOM library.
  return page.evaluate<string[]>(`(() => {
    const small = [];
    for (const control of document.querySelectorAll('button, select, input, textarea, summary, a[href]')) {
      if (control.classList.contains('skip')) continue;
      if (control.matches('a') && getComputedStyle(control).display === 'inline') continue;
      const target = control.matches('input[type=checkbox], input[type=radio]') ? control.closest('label') ?? control : control;
      const box = target.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.width < ${TAP_TARGET_PX} || box.height < ${TAP_TARGET_PX}) {
        const name = (control.getAttribute('aria-label') || control.textContent || control.getAttribute('name') || '').trim().slice(0, 40);
        small.push(control.tagName.toLowerCase() + ' "' + name + '" ' + Math.round(box.width) + '×' + Math.round(box.height));
      }
    }
    return small;
  })()`);
}

/** ISO 8601 instants in the text a grower reads: the service's form, which only the CSV export keeps. */
export async function visibleIsoInstants(page: Page): Promise<string[]> {
  const text = await page.evaluate<string>('document.body.innerText');
  return text.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}[^\s]*/g) ?? [];
}

/** What has keyboard focus: its tag, id, name, text, and the form (sensor or actuator) it is in. */
export async function focused(page: Page): Promise<{ tag: string; id: string; name: string; text: string; form: string | null }> {
  return page.evaluate(`(() => {
    const element = document.activeElement;
    const form = element?.closest('form');
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      id: element?.id ?? '',
      name: element?.getAttribute('name') ?? '',
      text: (element?.textContent ?? '').trim(),
      form: form?.dataset.sensorForm ?? form?.dataset.actuatorForm ?? null,
    };
  })()`);
}
