import { useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { ApiError, type FieldErrors, fieldErrors } from '../api/errors';
import { useDashboard } from '../context';
import { dependentsOf } from '../domain/dependents';
import { tankNameProblem } from '../domain/tanks';
import { ConfirmDialog } from './confirm';
import { FormActions, FormError, TextField } from './fields';

/** The chosen tank's name (rename, §5) and its delete, through the 409 and its cascade like a sensor's. */
export function TankSettings() {
  const { prototype, prototypes, canModify, tanksChanged } = useDashboard();
  const [name, setName] = useState(prototype.prototype_name);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  /** The delete being confirmed: first the tank alone, then, when the service refuses, what is in it. */
  const [deleting, setDeleting] = useState<{ dependents: string } | 'tank' | null>(null);
  const disabled = !canModify || busy;

  const attempt = async (action: () => Promise<unknown>, done: string): Promise<unknown> => {
    setBusy(true);
    setStatus('');
    try {
      await action();
      setErrors({});
      setStatus(done);
      return null;
    } catch (error) {
      return error;
    } finally {
      setBusy(false);
    }
  };

  const rename = async (event: Event) => {
    event.preventDefault();
    const problem = tankNameProblem(name);
    if (problem) return setErrors({ prototype_name: problem });
    const failed = await attempt(() => api.renamePrototype(prototype.prototype_id, { prototype_name: name.trim() }), 'Renamed.');
    if (failed) return setErrors(fieldErrors(failed));
    await tanksChanged();
  };

  const remove = async () => {
    const cascade = deleting !== null && deleting !== 'tank';
    setDeleting(null);
    const failed = await attempt(() => api.deletePrototype(prototype.prototype_id, cascade), 'Deleted.');
    if (!failed) {
      const next = prototypes.find((p) => p.prototype_id !== prototype.prototype_id);
      return tanksChanged(next?.prototype_id);
    }
    // Sensors, actuators or readings are in it: say how many, and offer to delete them with it.
    if (!cascade && failed instanceof ApiError && failed.status === 409) return setDeleting({ dependents: dependentsOf(failed) });
    setErrors({ _form: `Could not delete: ${fieldErrors(failed)._form ?? 'the service refused'}` });
  };

  const title = prototype.prototype_name;
  return (
    <form class="card form" onSubmit={rename} aria-label="Tank" data-tank-form={prototype.prototype_id}>
      <div class="grid">
        <TextField
          label="Tank name"
          name="prototype_name"
          errors={errors}
          value={name}
          onValue={setName}
          disabled={disabled}
          hint={`Tank id ${prototype.prototype_id}`}
        />
      </div>
      <FormError errors={errors} names={['_form']} />
      <FormActions submit="Rename" disabled={disabled} status={status}>
        <button type="button" class="ghost danger-text" disabled={disabled} onClick={() => setDeleting('tank')}>
          Delete tank
        </button>
      </FormActions>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting === 'tank' || deleting === null ? `Delete ${title}?` : `${title} still has sensors and data`}
        confirmLabel={deleting === 'tank' || deleting === null ? 'Delete' : 'Delete all of it'}
        onConfirm={remove}
        onCancel={() => setDeleting(null)}
      >
        {deleting === 'tank' || deleting === null ? (
          <p>The tank is removed; devices still posting to its sensors will get “not found”.</p>
        ) : (
          <>
            <p class="dependents">It still has {deleting.dependents}.</p>
            <p>Delete all of it with the tank? This cannot be undone.</p>
          </>
        )}
      </ConfirmDialog>
    </form>
  );
}
