/**
 * multipart/form-data for uploads (busboy): text fields and exactly one `file`, with the file size
 * bounded while streaming, so an oversized upload is refused before it is held in memory whole.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { invalid as fail } from '../errors';

export interface MultipartBody {
  fields: Record<string, string>;
  file?: { name: string; bytes: Buffer };
}

export function isMultipart(contentType: string | undefined): boolean {
  return /^multipart\/form-data\b/i.test(contentType ?? '');
}

export function readMultipart(req: IncomingMessage, maxFileBytes: number): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: 20, fieldSize: 64 * 1024, fileSize: maxFileBytes },
      });
    } catch {
      return reject(fail('body', 'malformed multipart/form-data body'));
    }
    // Null-prototype: a part named __proto__ or constructor is an ordinary (unknown) field.
    const body: MultipartBody = { fields: Object.create(null) as Record<string, string> };
    let problem: Error | null = null;
    let pending: Promise<void> = Promise.resolve();
    parser.on('field', (name, value) => {
      body.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        problem ??= fail(name, 'unexpected file part: send the file as the part named file');
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        problem ??= fail('file', `is larger than ${maxFileBytes} bytes`);
      });
      pending = new Promise((done) =>
        stream.on('close', () => {
          body.file = { name: (info.filename || 'upload').slice(0, 255), bytes: Buffer.concat(chunks) };
          done();
        }),
      );
    });
    parser.on('filesLimit', () => (problem ??= fail('file', 'send exactly one file')));
    parser.on('error', () => reject(fail('body', 'malformed multipart/form-data body')));
    parser.on('close', () => {
      void pending.then(() => (problem ? reject(problem) : resolve(body)));
    });
    req.pipe(parser);
  });
}
