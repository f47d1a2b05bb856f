import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { Calibration, CalibrationBody } from '../domain/calibration.js';
import { isoOf } from '../domain/date-time.js';
import { SensorIdParams } from '../domain/measurement.js';
import { Note, NoteBody, NoteIdParams, NotePatch } from '../domain/note.js';
import { PrototypeIdParams } from '../domain/prototype.js';
import { Deleted, errorResponses } from '../domain/schema-common.js';
import type { CalibrationService } from './calibration-service.js';
import { recordDocs as docs } from './docs.js';
import { cursorText } from './journal.js';
import type { JournalRecord } from './journal-sources.js';
import type { JournalService } from './journal-service.js';
import type { NoteService } from './note-service.js';
import { CalibrationListQuery, JournalCsvQuery, JournalEntry, JournalQuery, NoteListQuery } from './schemas.js';

/** What the record routes are given. */
export interface RecordRouteDeps {
  records: { calibrations: CalibrationService; notes: NoteService; journal: JournalService };
  config: Pick<Config, 'authMode'>;
}

const entryJson = (r: JournalRecord): JournalEntry => ({ ...r, at: isoOf(r.at), cursor: cursorText(r) });

const recordRoutes: FastifyPluginAsyncTypebox<RecordRouteDeps> = async (app, { records, config }) => {
  const { calibrations, notes, journal } = records;
  /** Who made the request, for the records that name their author; null in open mode, where nobody says. */
  const whoIs = (request: FastifyRequest) => (config.authMode === 'enforced' ? (request.principal?.username ?? null) : null);

  const sendCsv = (reply: FastifyReply, prototypeId: number, lines: AsyncGenerator<string>) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="prototype_${prototypeId}_journal.csv"`)
      .send(Readable.from(lines, { objectMode: false }));

  app.post('/sensors/:sensor_id/calibrations', {
    config: { access: 'modify' },
    schema: {
      ...docs.calibrate,
      params: SensorIdParams,
      body: CalibrationBody,
      response: { 200: Calibration, ...errorResponses(404, 422) },
    },
    handler: (request) => calibrations.record(request.params.sensor_id, request.body, whoIs(request)),
  });

  app.get('/sensors/:sensor_id/calibrations', {
    config: { access: 'read' },
    schema: {
      ...docs.calibrations,
      params: SensorIdParams,
      querystring: CalibrationListQuery,
      response: { 200: Type.Array(Calibration), ...errorResponses(404, 422) },
    },
    handler: (request) => calibrations.list(request.params.sensor_id, request.query.limit ?? 100),
  });

  app.post('/prototypes/:prototype_id/notes', {
    config: { access: 'modify' },
    schema: { ...docs.postNote, params: PrototypeIdParams, body: NoteBody, response: { 200: Note, ...errorResponses(404, 422) } },
    handler: (request) => notes.create(request.params.prototype_id, request.body, whoIs(request)),
  });

  app.get('/notes', {
    config: { access: 'read' },
    schema: { ...docs.notes, querystring: NoteListQuery, response: { 200: Type.Array(Note), ...errorResponses(422) } },
    handler: (request) => notes.list(request.query),
  });

  app.get('/notes/:note_id', {
    config: { access: 'read' },
    schema: { ...docs.getNote, params: NoteIdParams, response: { 200: Note, ...errorResponses(404, 422) } },
    handler: (request) => notes.get(request.params.note_id),
  });

  app.patch('/notes/:note_id', {
    config: { access: 'modify' },
    schema: { ...docs.patchNote, params: NoteIdParams, body: NotePatch, response: { 200: Note, ...errorResponses(404, 422) } },
    handler: (request) => notes.update(request.params.note_id, request.body),
  });

  app.delete('/notes/:note_id', {
    config: { access: 'modify' },
    schema: { ...docs.deleteNote, params: NoteIdParams, response: { 204: Deleted, ...errorResponses(404, 422) } },
    handler: async (request, reply) => {
      await notes.remove(request.params.note_id);
      return reply.code(204).send();
    },
  });

  app.get('/prototypes/:prototype_id/journal', {
    config: { access: 'read' },
    schema: {
      ...docs.journal,
      params: PrototypeIdParams,
      querystring: JournalQuery,
      produces: ['application/json', 'text/csv'],
      response: { 200: Type.Array(JournalEntry), ...errorResponses(404, 422) },
    },
    handler: async (request, reply) => {
      const { prototype_id } = request.params;
      if (request.query.format === 'csv') return sendCsv(reply, prototype_id, await journal.csv(prototype_id, request.query));
      return (await journal.page(prototype_id, request.query)).map(entryJson);
    },
  });

  app.get('/prototypes/:prototype_id/journal.csv', {
    config: { access: 'read' },
    schema: {
      ...docs.journalCsv,
      params: PrototypeIdParams,
      querystring: JournalCsvQuery,
      produces: ['text/csv'],
      response: errorResponses(404, 422),
    },
    handler: async (request, reply) =>
      sendCsv(reply, request.params.prototype_id, await journal.csv(request.params.prototype_id, request.query)),
  });
};

export default recordRoutes;
