import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { When } from '../components/when';
import { useDashboard } from '../context';
import { Timelapses } from './timelapses';

/** The picture, or why there is none: `noCamera` when no source is set and nothing was ever uploaded. */
type Shot = { url: string; at: Date } | { problem: string; noCamera: boolean } | null;

/** The camera's current picture, fetched on demand (the service caches and shares captures), and its timelapses. */
export function CameraPage() {
  const { settings } = useDashboard();
  const [shot, setShot] = useState<Shot>(null);
  const [busy, setBusy] = useState(false);

  const refresh = async () => {
    setBusy(true);
    try {
      // Fetched rather than linked so that the token goes with it in enforced mode.
      const blob = await api.picture();
      setShot({ url: URL.createObjectURL(blob), at: new Date() });
    } catch (error) {
      const unavailable = error instanceof ApiError && error.status === 503;
      const sourceSet = settings.picture_source_set ?? true;
      setShot({
        problem: unavailable ? cameraProblem(sourceSet) : `Could not load the picture: ${(error as Error).message}`,
        noCamera: unavailable && !sourceSet,
      });
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    void refresh();
  }, []);
  // Each picture is a blob URL: give the previous one back when it is replaced.
  useEffect(() => {
    const url = shot && 'url' in shot ? shot.url : null;
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [shot]);

  return (
    <div class="camera">
      <div class="actions">
        <button type="button" onClick={refresh} disabled={busy}>
          {busy ? 'Refreshing…' : 'Refresh picture'}
        </button>
        {shot && 'at' in shot && (
          <span class="muted">
            Taken at <When at={shot.at.getTime()} timeOnly />
          </span>
        )}
      </div>
      <div class="card picture">
        {!shot && <p class="loading">Loading…</p>}
        {shot && 'problem' in shot && (
          <p class="error" role="alert">
            {shot.problem}
          </p>
        )}
        {shot && 'url' in shot && <img src={shot.url} alt="The prototype seen by its camera" />}
      </div>
      <Timelapses noCamera={shot !== null && 'noCamera' in shot && shot.noCamera} />
    </div>
  );
}

/** Why there is no picture, with the setting to change: a source that fails, or none at all. */
function cameraProblem(sourceSet: boolean): string {
  return sourceSet
    ? 'Camera not available: the camera of PICTURE_SOURCE did not answer with a picture.'
    : 'Camera not available: no camera is set up. Set PICTURE_SOURCE (a snapshot URL, a file or a command), or upload a picture with PUT /picture.';
}
