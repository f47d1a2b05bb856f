import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe.each(storeKinds())('a timelapse needs a camera (%s)', (kind) => {
  let service: TestService | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await service?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('refuses to start with PICTURE_SOURCE unset and no picture uploaded, saying which setting, and starts after an upload', async () => {
    folder = mkdtempSync(join(tmpdir(), 'sensorhub-no-camera-'));
    service = await startService(kind, { env: { TIMELAPSE_DIR: folder } });
    const config = { frequency: 60, duration: 3600, framerate: 10 };

    const refused = await service.post('/timelapse/start', config);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/^no camera: set PICTURE_SOURCE/);
    // Nothing was started or written.
    expect((await service.get('/timelapse/status')).body).toMatchObject({ running: false, metadata: null });
    expect((await service.get('/timelapse')).body).toEqual([]);
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);

    const upload = await service.request('PUT', '/picture', { raw: PNG_1PX, headers: { 'content-type': 'image/png' } });
    expect(upload.status).toBe(204);
    const started = await service.post('/timelapse/start', config);
    expect(started.status).toBe(200);
    expect(started.body.running).toBe(true);
    expect((await service.post('/timelapse/stop')).status).toBe(200);
  });
});
