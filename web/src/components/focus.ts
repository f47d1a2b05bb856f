/**
 * Keeps keyboard focus where the grower left it across an action: a control disabled while the
 * action runs loses focus to the page's body, which sends a keyboard user back to the top. Call
 * before the action; the function it returns gives focus back once the page has drawn the
 * outcome, if the control is still there and nothing else took focus meanwhile.
 */
export function keepFocus(): () => void {
  const element = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  return () => {
    // After Preact's render (a microtask): the control is enabled again by then.
    setTimeout(() => {
      const current = document.activeElement;
      const lost = current === null || current === document.body;
      if (element?.isConnected && lost) element.focus();
    }, 0);
  };
}

/** Moves focus to the outcome of an action that replaced its control (an acknowledgement, a new item). */
export function focusOutcome(element: HTMLElement | null | undefined): void {
  if (!element) return;
  if (!element.hasAttribute('tabindex') && element.tabIndex < 0) element.tabIndex = -1;
  element.focus();
}
