import { and, asc, eq } from 'drizzle-orm';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fileChunks, files } from '../../db/schema';
import { DatabaseStore } from '../files/db-store';
import { LocalDiskStore, type FileStore } from '../files/store';
import {
  client,
  expectError,
  multipart,
  newClinic,
  startServer,
  type Clinic,
  type Res,
  type TestServer,
  type Upload,
} from './helpers';

const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clinic-files-'));
afterAll(() => fs.rmSync(filesDir, { recursive: true, force: true }));

// A 1x1 PNG: the server must call it image/png whatever the client says.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

// Every test runs against both stores (FILES_STORE): bytes on local disk, and bytes in the database.
describe.each([['disk'], ['database']] as const)('with the %s file store', (store) => {
  let server: TestServer;
  let clinic: Clinic;
  let api: ReturnType<typeof client>;
  let patientId: number;

  beforeAll(async () => {
    server = await startServer({ FILES_DIR: filesDir, FILE_MAX_BYTES: '4096', FILES_STORE: store });
    clinic = await newClinic(server);
    api = client(server, clinic);
    patientId = (await api.post('/patients', { body: { first_name: 'File', last_name: 'Owner' } })).body.data.id;
  });
  afterAll(() => server.close());

  /** POST /files as multipart/form-data, built by hand so the test controls every byte. */
  function upload(fields: Record<string, string>, file?: Upload, headers: Record<string, string> = {}): Promise<Res> {
    const body = multipart(fields, file);
    return api.post('/files', { raw: body.raw, headers: { ...body.headers, ...headers } });
  }

  function download(
    id: number,
    port = server.port,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port,
            path: `/v3/api/files/${id}/download`,
            headers: { host: clinic.host, authorization: `Bearer ${clinic.key}` },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }),
            );
          },
        )
        .on('error', reject);
    });
  }

  /** How many files the store holds bytes of for the clinic. */
  const storedFiles = async () =>
    store === 'disk'
      ? fs
          .readdirSync(path.join(filesDir, String(clinic.account.id)), { withFileTypes: true })
          .filter((d) => d.isFile()).length
      : (
          await server.app.db.db
            .selectDistinct({ key: fileChunks.file_key })
            .from(fileChunks)
            .where(eq(fileChunks.account_id, clinic.account.id))
        ).length;
  const fileRows = async () => (await api.get(`/files?patient_id=${patientId}`)).body.meta.total;

  describe('files', () => {
    it('upload → 201 with the type sniffed from the bytes; download returns them', async () => {
      const res = await upload(
        {
          patient_id: String(patientId),
          file_type: 'diagnostic_image',
          description: 'Knee X-ray',
          patient_viewable: 'true',
        },
        { name: 'knee.pdf', type: 'application/pdf', bytes: PNG },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        patient_id: patientId,
        file_type: 'diagnostic_image',
        file_name: 'knee.pdf',
        description: 'Knee X-ray',
        mime_type: 'image/png',
        size: String(PNG.length),
        patient_viewable: true,
        entity_type: 'Patient',
      });
      const got = await download(res.body.data.id);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.headers['content-disposition']).toContain('attachment; filename="knee.pdf"');
      expect(got.bytes.equals(PNG)).toBe(true);
      const [row] = await server.app.db.db.select().from(files).where(eq(files.id, res.body.data.id));
      expect(row.storage_key).toMatch(new RegExp(`^${clinic.account.id}/[0-9a-f-]{36}$`));
      expect(row.storage_key).not.toContain('knee');
      expect((await api.get(`/files/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    });

    it('plain text is text/plain; unknown bytes are application/octet-stream', async () => {
      const text = await upload(
        { patient_id: String(patientId), file_type: 'generic' },
        { name: 'notes.txt', type: 'image/png', bytes: Buffer.from('hello, world\n') },
      );
      expect(text.body.data.mime_type).toBe('text/plain');
      const bin = await upload(
        { patient_id: String(patientId), file_type: 'generic' },
        { name: 'blob', type: 'text/plain', bytes: Buffer.from([0, 1, 2, 3, 255, 254]) },
      );
      expect(bin.body.data.mime_type).toBe('application/octet-stream');
    });

    it('refusals store nothing: too large, unknown patient, log mismatch, bad type, no file, not multipart', async () => {
      const before = { rows: await fileRows(), bytes: await storedFiles() };
      const big = await upload(
        { patient_id: String(patientId), file_type: 'generic' },
        { name: 'big.bin', type: 'application/octet-stream', bytes: Buffer.alloc(5000, 1) },
      );
      expectError(big, 422, 'validation_failed');
      expect(Object.keys(big.body.errors)).toEqual(['file']);
      expectError(
        await upload(
          { patient_id: '999999', file_type: 'generic' },
          { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
        ),
        422,
        'patient_not_found',
      );
      expectError(
        await upload(
          { patient_id: String(patientId), file_type: 'patient_log' },
          { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
        ),
        422,
        'patient_log_mismatch',
      );
      const other = (await api.post('/patients', { body: { first_name: 'Other', last_name: 'Patient' } })).body.data.id;
      const log = (await api.post('/patient_logs', { body: { patient_id: other, type: 'note', data: 'x' } })).body.data
        .id;
      expectError(
        await upload(
          { patient_id: String(patientId), file_type: 'patient_log', patient_log_id: String(log) },
          { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
        ),
        422,
        'patient_log_mismatch',
      );
      expectError(
        await upload(
          { patient_id: String(patientId), file_type: 'selfie' },
          { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
        ),
        422,
        'validation_failed',
      );
      expectError(
        await upload(
          { patient_id: String(patientId), file_type: 'generic', description: 'd'.repeat(256) },
          { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('a') },
        ),
        422,
        'validation_failed',
      );
      expectError(await upload({ patient_id: String(patientId), file_type: 'generic' }), 422, 'validation_failed');
      expectError(
        await api.post('/files', { body: { patient_id: patientId, file_type: 'generic' } }),
        415,
        'unsupported_media_type',
      );
      expect({ rows: await fileRows(), bytes: await storedFiles() }).toEqual(before);
    });

    it('a file on a timeline entry of the same patient is accepted', async () => {
      const log = (
        await api.post('/patient_logs', { body: { patient_id: patientId, type: 'note', data: 'scan attached' } })
      ).body.data.id;
      const res = await upload(
        { patient_id: String(patientId), file_type: 'patient_log', patient_log_id: String(log) },
        { name: 'scan.png', type: 'image/png', bytes: PNG },
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ file_type: 'patient_log', patient_log_id: log });
      expectError(
        await api.patch(`/files/${res.body.data.id}`, { body: { file_type: 'generic' } }),
        422,
        'file_type_not_allowed',
      );
    });

    it('PATCH: description, visibility, metadata, and the category among the movable ones (history says type)', async () => {
      const id = (
        await upload(
          { patient_id: String(patientId), file_type: 'generic' },
          { name: 'a.txt', type: 'text/plain', bytes: Buffer.from('abc') },
        )
      ).body.data.id;
      const res = await api.patch(`/files/${id}`, {
        body: {
          description: 'Referral letter',
          patient_viewable: true,
          file_type: 'custom_content',
          metadata: { source: 'fax' },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        description: 'Referral letter',
        patient_viewable: true,
        file_type: 'custom_content',
        metadata: { source: 'fax' },
      });
      const [audit] = await server.app.db.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'files'), eq(auditLog.entity_id, id), eq(auditLog.action, 'updated')))
        .orderBy(asc(auditLog.id));
      expect(audit.changes).toHaveProperty('type', { from: 'generic', to: 'custom_content' });
      expect(audit.changes).not.toHaveProperty('file_type');
      expectError(
        await api.patch(`/files/${id}`, { body: { file_type: 'patient_profile' } }),
        422,
        'file_type_not_allowed',
      );
      expectError(await api.patch(`/files/${id}`, { body: { file_name: 'x.txt' } }), 422, 'validation_failed');
      const profile = (
        await upload(
          { patient_id: String(patientId), file_type: 'patient_profile' },
          { name: 'me.png', type: 'image/png', bytes: PNG },
        )
      ).body.data.id;
      expectError(
        await api.patch(`/files/${profile}`, { body: { file_type: 'generic' } }),
        422,
        'file_type_not_allowed',
      );
    });

    it('DELETE removes the record and the bytes; 404 afterwards', async () => {
      const id = (
        await upload(
          { patient_id: String(patientId), file_type: 'generic' },
          { name: 'gone.txt', type: 'text/plain', bytes: Buffer.from('bye') },
        )
      ).body.data.id;
      const bytesBefore = await storedFiles();
      expect((await api.delete(`/files/${id}`)).status).toBe(204);
      expect(await storedFiles()).toBe(bytesBefore - 1);
      expectError(await api.get(`/files/${id}`), 404, 'not_found');
      expect((await download(id)).status).toBe(404);
      expect((await api.get(`/deleted_entities?entity=files&entity_id=${id}`)).body.data).toHaveLength(1);
    });

    it('upload honours Idempotency-Key', async () => {
      const fields = { patient_id: String(patientId), file_type: 'generic' };
      const file = { name: 'once.txt', type: 'text/plain', bytes: Buffer.from('once') };
      const first = await upload(fields, file, { 'Idempotency-Key': `upload-${patientId}` });
      const again = await upload(fields, file, { 'Idempotency-Key': `upload-${patientId}` });
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.data.id).toBe(first.body.data.id);
    });

    it.runIf(store === 'database')(
      'another instance on the same database serves and removes what this one stored (only on the database store)',
      async () => {
        const other = await startServer({ FILES_DIR: path.join(filesDir, 'other-instance'), FILES_STORE: 'database' });
        try {
          const id = (
            await upload(
              { patient_id: String(patientId), file_type: 'generic' },
              { name: 'shared.png', type: 'image/png', bytes: PNG },
            )
          ).body.data.id;
          const got = await download(id, other.port);
          expect(got.status).toBe(200);
          expect(got.bytes.equals(PNG)).toBe(true);
          const bytesBefore = await storedFiles();
          expect((await client(other, clinic).delete(`/files/${id}`)).status).toBe(204);
          expect(await storedFiles()).toBe(bytesBefore - 1);
          expect((await download(id)).status).toBe(404);
        } finally {
          await other.close();
        }
      },
    );
  });

  describe('a file store that fails', () => {
    it('upload → 409 file_store_failed and no row; delete → 409 file_delete_failed and the record stays', async () => {
      const real: FileStore = store === 'database' ? new DatabaseStore(server.app.db) : new LocalDiskStore(filesDir);
      let failing = false;
      const flaky = {
        put: (acc: number, bytes: Buffer) => (failing ? Promise.reject(new Error('disk full')) : real.put(acc, bytes)),
        get: (key: string) => real.get(key),
        delete: (key: string) => (failing ? Promise.reject(new Error('read-only')) : real.delete(key)),
      };
      const own = await startServer({ FILES_DIR: filesDir, FILES_STORE: store }, { files: flaky });
      try {
        const c = client(own, clinic);
        const before = (await c.get(`/files?patient_id=${patientId}`)).body.meta.total;
        const id = (await api.get(`/files?patient_id=${patientId}&page_size=1`)).body.data[0].id;
        failing = true;
        const payload = Buffer.from(
          `--b\r\nContent-Disposition: form-data; name="patient_id"\r\n\r\n${patientId}\r\n--b\r\nContent-Disposition: form-data; name="file_type"\r\n\r\ngeneric\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="x.txt"\r\n\r\nx\r\n--b--\r\n`,
        );
        const res = await c.post('/files', {
          raw: payload.toString(),
          headers: { 'content-type': 'multipart/form-data; boundary=b' },
        });
        expectError(res, 409, 'file_store_failed');
        expectError(await c.delete(`/files/${id}`), 409, 'file_delete_failed');
        expect((await c.get(`/files/${id}`)).status).toBe(200);
        expect((await c.get(`/files?patient_id=${patientId}`)).body.meta.total).toBe(before);
      } finally {
        await own.close();
      }
    });
  });
});
