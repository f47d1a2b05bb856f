import { useState } from 'preact/hooks';
import { ApiError } from '../api/errors';
import { dependentsOf } from '../domain/dependents';
import { ConfirmDialog } from './confirm';

/** Where a delete stands: not asked, the first question, or the service's refusal with what is below it. */
export type DeleteStep = null | 'ask' | { dependents: string };

/**
 * A delete the service refuses (409) while something is below what is deleted (a sensor's
 * readings, a tank's sensors): asked once, and when refused, asked again with the counts of the
 * 409, then sent with `cascade=true`. `perform` answers null when the delete went through, else
 * what it failed with.
 */
export function useCascadeDelete(
  perform: (cascade: boolean) => Promise<unknown>,
  outcome: { deleted: () => unknown; failed: (failure: unknown) => void },
) {
  const [step, setStep] = useState<DeleteStep>(null);
  const confirm = async () => {
    const cascade = step !== null && step !== 'ask';
    setStep(null);
    const failure = await perform(cascade);
    if (failure === null) return void outcome.deleted();
    if (!cascade && failure instanceof ApiError && failure.status === 409) return setStep({ dependents: dependentsOf(failure) });
    outcome.failed(failure);
  };
  return { step, ask: () => setStep('ask'), cancel: () => setStep(null), confirm };
}

interface Props {
  step: DeleteStep;
  /** The grower's name for it: "pH #2", "Basil". */
  name: string;
  /** What it is, for the second question: "sensor", "tank". */
  noun: string;
  /** What the refusal means it still has: "data", "sensors and data". */
  holds: string;
  /** What deleting it does, for the first question. */
  consequence: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The two questions of a delete with dependents: "Delete pH #2?", then "pH #2 still has data" with the counts. */
export function CascadeDeleteDialog({ step, name, noun, holds, consequence, onConfirm, onCancel }: Props) {
  const refused = step !== null && step !== 'ask' ? step : null;
  return (
    <ConfirmDialog
      open={step !== null}
      title={refused ? `${name} still has ${holds}` : `Delete ${name}?`}
      confirmLabel={refused ? 'Delete all of it' : 'Delete'}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {refused ? (
        <>
          <p class="dependents">It still has {refused.dependents}.</p>
          <p>Delete all of it with the {noun}? This cannot be undone.</p>
        </>
      ) : (
        <p>{consequence}</p>
      )}
    </ConfirmDialog>
  );
}
