import { useState } from 'preact/hooks';
import { type FieldErrors, fieldErrors } from '../api/errors';
import { keepFocus } from './focus';

/**
 * Saving state shared by the settings forms: errors by field, a short confirmation, a busy flag,
 * and focus kept on the control that saved (its button is disabled while the service answers).
 */
export function useSave() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  /** Runs the action: null when it succeeded (and `done` is shown), else what it failed with. */
  const attempt = async (action: () => Promise<unknown>, done: string): Promise<unknown> => {
    const giveFocusBack = keepFocus();
    setBusy(true);
    setStatus('');
    try {
      await action();
      setErrors({});
      setStatus(done);
      return null;
    } catch (error) {
      return error ?? new Error('failed');
    } finally {
      setBusy(false);
      giveFocusBack();
    }
  };

  /** Runs the action and shows the service's refusal under the fields it names; true when it succeeded. */
  const run = async (action: () => Promise<unknown>, done: string): Promise<boolean> => {
    const failure = await attempt(action, done);
    if (failure !== null) setErrors(fieldErrors(failure));
    return failure === null;
  };

  return { errors, setErrors, status, busy, attempt, run };
}
