import { useState } from 'preact/hooks';
import { keepFocus } from './focus';

/** A button's action: busy while it runs (focus kept on the button), and what went wrong, in words, when it fails. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const act = async (what: string, action: () => Promise<void>) => {
    const giveFocusBack = keepFocus();
    setBusy(true);
    try {
      await action();
      setProblem(null);
    } catch (error) {
      setProblem(`Could not ${what}: ${(error as Error).message}`);
    } finally {
      setBusy(false);
      giveFocusBack();
    }
  };
  return { busy, problem, act };
}

/** The failure of an action, beside its button, announced to screen readers. */
export function ActionProblem({ problem }: { problem: string | null }) {
  if (!problem) return null;
  return (
    <span class="error" role="alert">
      {problem}
    </span>
  );
}
