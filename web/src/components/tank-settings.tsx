import { useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { fieldErrors } from '../api/errors';
import { useDashboard } from '../context';
import { tankNameProblem } from '../domain/tanks';
import { CascadeDeleteDialog, useCascadeDelete } from './cascade-delete';
import { FormActions, FormError, TextField } from './fields';
import { useSave } from './use-save';

/** The chosen tank's name (rename, §5) and its delete, through the 409 and its cascade like a sensor's. */
export function TankSettings() {
  const { prototype, prototypes, canModify, tanksChanged } = useDashboard();
  const [name, setName] = useState(prototype.prototype_name);
  const { errors, setErrors, status, busy, attempt } = useSave();
  const disabled = !canModify || busy;

  const rename = async (event: Event) => {
    event.preventDefault();
    const problem = tankNameProblem(name);
    if (problem) return setErrors({ prototype_name: problem });
    const failed = await attempt(() => api.renamePrototype(prototype.prototype_id, { prototype_name: name.trim() }), 'Renamed.');
    if (failed) return setErrors(fieldErrors(failed));
    await tanksChanged();
  };

  // Sensors, actuators or readings in it: the service refuses, the dialog says how many, and asks again.
  const deletion = useCascadeDelete((cascade) => attempt(() => api.deletePrototype(prototype.prototype_id, cascade), 'Deleted.'), {
    deleted: () => tanksChanged(prototypes.find((p) => p.prototype_id !== prototype.prototype_id)?.prototype_id),
    failed: (failure) => setErrors({ _form: `Could not delete: ${fieldErrors(failure)._form ?? 'the service refused'}` }),
  });

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
        <button type="button" class="ghost danger-text" disabled={disabled} onClick={deletion.ask}>
          Delete tank
        </button>
      </FormActions>
      <CascadeDeleteDialog
        step={deletion.step}
        name={prototype.prototype_name}
        noun="tank"
        holds="sensors and data"
        consequence="The tank is removed; devices still posting to its sensors will get “not found”."
        onConfirm={deletion.confirm}
        onCancel={deletion.cancel}
      />
    </form>
  );
}
