import { useState } from 'preact/hooks';

/** The clipboard API where the page may use it (https or localhost), else the old select-and-copy. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, no focus): the fallback below may still work.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const done = document.execCommand('copy');
  area.remove();
  return done;
}

/** A line to copy, shown as code, with its button and a short result screen readers hear. */
export function CopyLine({ label, text }: { label: string; text: string }) {
  const [result, setResult] = useState('');
  const copy = async () => setResult((await copyText(text)) ? 'Copied.' : 'Select the text and copy it by hand.');
  return (
    <div class="copy-line">
      <span class="copy-label">{label}</span>
      <code>{text}</code>
      <div class="copy-actions">
        <button type="button" class="ghost" onClick={copy} aria-label={`Copy: ${label}`}>
          Copy
        </button>
        <span class="status" role="status">
          {result}
        </span>
      </div>
    </div>
  );
}
