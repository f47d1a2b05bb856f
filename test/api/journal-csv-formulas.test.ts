import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../helpers/service.js';
import { storeKinds } from '../helpers/stores.js';

/** The journal's CSV opened in a spreadsheet, whatever separator it is told to split on (docs/api.md §15). */
describe.each(storeKinds())('journal CSV and formulas (%s)', (kind) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startService(kind);
  });
  afterAll(() => service?.close());

  it.each([';', ',', '\t', '|'])('never lets a cell split on %j start a formula', async (separator) => {
    const text = `x${separator}=1+2${separator}`;
    const note = await service.post('/prototypes/0/notes', { text, tags: [`a${separator}@b`] });
    expect(note.status).toBe(200);
    expect(note.body.text).toBe(text);
    const csv = await service.get('/prototypes/0/journal.csv?type=note');
    expect(csv.status).toBe(200);
    const line = csv.text.split('\r\n').find((l) => l.includes('1+2') && l.includes(separator === ',' ? '"' : separator));
    expect(line).toBeDefined();
    // Split the line on the separator as a spreadsheet would (quotes aside): no piece starts a formula.
    for (const piece of line!.replace(/"/g, '').split(separator)) expect(piece.trimStart()).not.toMatch(/^[=+\-@]/);
    expect(line).toContain(`${separator}'=1+2`);
  });
});
