import type { IncomingMessage } from 'node:http';
import type { BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** How much of a multipart/form-data body is read before it is refused. */
export interface FormLimits {
  fields: number;
  fieldSize: number;
  files: number;
  fileSize: number;
}

/** A form refused for what it holds (413 past a limit, 400 when it cannot be read). */
class FormRefused extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * multipart/form-data bodies as an object of their text fields, for the routes of the plugin that
 * calls this (the login and user forms): a field named twice becomes a list, a file part is read
 * past and ignored like any unknown field. The parser (busboy) is loaded on the first such body:
 * the forms are rare, and a service on a small board should not hold it, nor have Node load its
 * fetch implementation as the usual multipart plugin makes it do at start.
 */
export function acceptMultipartForms(app: FastifyInstance, limits: FormLimits): void {
  app.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: IncomingMessage) =>
    readForm(payload, request.headers, limits),
  );
}

async function readForm(payload: IncomingMessage, headers: IncomingMessage['headers'], limits: FormLimits): Promise<object> {
  const { Busboy } = await import('@fastify/busboy');
  return new Promise((resolve, reject) => {
    const fields: Record<string, string | string[]> = Object.create(null);
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      payload.unpipe();
      payload.resume();
      reject(error);
    };
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: headers as never,
        limits: { ...limits, parts: limits.fields + limits.files },
      });
    } catch (error) {
      fail(new FormRefused(400, `Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) return fail(new FormRefused(413, `A form field is over ${limits.fieldSize} bytes`));
      const before = fields[name];
      fields[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
    });
    parser.on('file', (_name: string, file: NodeJS.ReadableStream) => file.resume());
    parser.on('fieldsLimit', () => fail(new FormRefused(413, `A form holds at most ${limits.fields} fields`)));
    parser.on('filesLimit', () => fail(new FormRefused(413, `A form holds at most ${limits.files} files`)));
    parser.on('partsLimit', () => fail(new FormRefused(413, `A form holds at most ${limits.fields + limits.files} parts`)));
    parser.on('error', (error: Error) => fail(new FormRefused(400, `Malformed multipart body: ${error.message}`)));
    parser.on('finish', () => {
      if (settled) return;
      settled = true;
      resolve(fields);
    });
    payload.on('error', fail);
    payload.pipe(parser);
  });
}
