/**
 * Streaming multipart/form-data with limits: one `file` part held in memory up to `maxFileBytes`,
 * string fields up to `maxFields` of `maxFieldBytes` each. Anything past a limit stops the parse with
 * a 413; anything malformed with a 400 naming what is wrong.
 */
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { ReceiptKitError } from '../errors.js';
import { badParameter, mediaType } from './http.js';

export interface MultipartLimits {
  maxFileBytes: number;
  maxFields: number;
  maxFieldBytes: number;
}

export interface MultipartForm {
  file?: { bytes: Buffer; filename?: string; contentType?: string };
  fields: Record<string, string>;
}

const tooLarge = (message: string) => new ReceiptKitError('FILE_TOO_LARGE', message);

/** Parses a multipart request; 415 when the request is not multipart. */
export function readMultipart(req: IncomingMessage, limits: MultipartLimits): Promise<MultipartForm> {
  if (mediaType(req) !== 'multipart/form-data') {
    return Promise.reject(new ReceiptKitError('UNSUPPORTED_MEDIA_TYPE',
      `this endpoint takes multipart/form-data with a "file" part, not ${mediaType(req) || 'no content type'}`));
  }
  // A declared length far over every limit together is refused before reading.
  const declared = Number(req.headers['content-length']);
  const ceiling = limits.maxFileBytes + limits.maxFields * (limits.maxFieldBytes + 1024) + 64 * 1024;
  if (Number.isFinite(declared) && declared > ceiling) {
    return Promise.reject(tooLarge(`the request body is ${declared} bytes, over the ${limits.maxFileBytes} byte file limit`));
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: {
          fileSize: limits.maxFileBytes,
          files: 1,
          fields: limits.maxFields,
          fieldSize: limits.maxFieldBytes,
          fieldNameSize: 200,
          parts: limits.maxFields + 1,
          headerPairs: 100,
        },
      });
    } catch (e) {
      reject(badParameter('body', `malformed multipart request (${(e as Error).message})`));
      return;
    }
    const form: MultipartForm = { fields: {} };
    let failed = false;
    let fileDone: Promise<void> = Promise.resolve();
    // Busboy's limits count parts; bytes outside any part (a boundary that never comes) are counted here.
    let total = 0;
    const count = (chunk: Buffer) => {
      total += chunk.length;
      if (total > ceiling) fail(tooLarge(`the request body is over ${ceiling} bytes (the ${limits.maxFileBytes} byte file limit and the form fields)`));
    };
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      req.off('data', count);
      req.unpipe(bb);
      bb.removeAllListeners();
      bb.on('error', () => undefined);
      reject(e);
    };
    bb.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        fail(badParameter(name, 'unexpected file part; send the receipt in a part named "file"'));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      fileDone = new Promise<void>((done) => {
        stream.on('data', (chunk: Buffer) => { size += chunk.length; chunks.push(chunk); });
        stream.on('limit', () => {
          stream.resume();
          fail(tooLarge(`the file is over the ${limits.maxFileBytes} byte limit`));
        });
        stream.on('end', () => {
          if (!failed) {
            form.file = {
              bytes: Buffer.concat(chunks, size),
              ...(info.filename ? { filename: info.filename.slice(0, 1000) } : {}),
              ...(info.mimeType && info.mimeType !== 'application/octet-stream' ? { contentType: info.mimeType.slice(0, 200) } : {}),
            };
          }
          done();
        });
        stream.on('error', (e: Error) => { fail(badParameter('file', `the upload failed (${e.message})`)); done(); });
      });
    });
    bb.on('field', (name, value, info) => {
      if (info.nameTruncated) { fail(badParameter('fields', 'a field name is longer than 200 characters')); return; }
      if (info.valueTruncated) { fail(tooLarge(`${name}: the field is over the ${limits.maxFieldBytes} byte limit`)); return; }
      if (Object.prototype.hasOwnProperty.call(form.fields, name)) { fail(badParameter(name, 'the field is given twice')); return; }
      form.fields[name] = value;
    });
    bb.on('filesLimit', () => fail(badParameter('file', 'only one file per request')));
    bb.on('fieldsLimit', () => fail(tooLarge(`too many form fields (limit ${limits.maxFields})`)));
    bb.on('partsLimit', () => fail(tooLarge(`too many form parts (limit ${limits.maxFields + 1})`)));
    bb.on('error', (e: Error) => fail(badParameter('body', `malformed multipart request (${e.message})`)));
    bb.on('close', () => { fileDone.then(() => { if (!failed) resolve(form); }); });
    req.on('error', (e) => fail(badParameter('body', `the upload failed (${e.message})`)));
    req.on('data', count);
    req.pipe(bb);
  });
}
