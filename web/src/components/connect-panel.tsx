import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ConnectInfo } from '../domain/connect';
import { PERMISSION_NAMES } from '../domain/permissions';
import { CopyLine } from './copy';

/** "Connect": how a device talks to this sensor or pump, in a modal opened by a button. */
export function ConnectButton({ title, info, label = 'Connect' }: { title: string; info: () => ConnectInfo; label?: string }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return (
    <>
      <button type="button" class="ghost connect" ref={opener} onClick={() => setOpen(true)} aria-label={`${label}: ${title}`}>
        {label}
      </button>
      <dialog ref={dialog} class="confirm connect-panel" aria-labelledby={`${id}-title`} onCancel={close}>
        <h2 id={`${id}-title`}>Connect {title}</h2>
        {open && <ConnectDetails info={info()} />}
        <div class="actions">
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}

function ConnectDetails({ info }: { info: ConnectInfo }) {
  const permission = PERMISSION_NAMES.find((p) => p.name === info.permission);
  return (
    <div class="connect-details" data-connect-id={info.id}>
      <dl class="facts">
        <dt>Service</dt>
        <dd>
          <code>{info.serviceUrl}</code>
        </dd>
        <dt>Id</dt>
        <dd>
          <code>{info.id}</code>
        </dd>
        <dt>Token</dt>
        <dd>
          {info.needsToken ? (
            <>
              A device token with <strong>{info.permission}</strong> ({permission?.meaning}), and nothing more.
            </>
          ) : (
            <>
              None while access is open; with <code>AUTH_MODE=enforced</code> a device token with <strong>{info.permission}</strong>.
            </>
          )}
        </dd>
      </dl>
      <h3>HTTP</h3>
      {info.http.map((line) => (
        <CopyLine key={line.label} label={line.label} text={line.text} />
      ))}
      <h3>MQTT</h3>
      {info.mqtt ? (
        info.mqtt.map((line) => <CopyLine key={line.label} label={line.label} text={line.text} />)
      ) : (
        <p class="muted">
          Not connected to a broker: set <code>MQTT_URL</code> for devices that speak MQTT.
        </p>
      )}
    </div>
  );
}
