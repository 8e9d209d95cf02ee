import { z } from 'zod';
import { FILE_TYPES } from '../../db/schema';
import { deleteFile, downloadFile, updateFile, uploadFile, type Upload } from '../domain/files';
import { writeContext } from '../domain/write-context';
import { files } from '../resources/files';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, procedure, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { deleteProcedure, updateProcedure } from './write';

const tags = ['files'];

/** The upload's multipart fields arrive as text; the file part as { name, bytes } (server/rest/multipart.ts). */
const uploadInput = z.strictObject({
  patient_id: z.coerce.number().int().min(1),
  file_type: z.enum(FILE_TYPES),
  patient_log_id: z.coerce.number().int().min(1).optional(),
  description: z.string().max(255).optional(),
  patient_viewable: z.stringbool().optional(),
  file: z
    .any()
    .refine((v) => v && typeof v === 'object' && Buffer.isBuffer(v.bytes), 'a file part named file is required')
    .describe('The file (binary)'),
});

export const filesRouter = router({
  ...readProcedures(files),
  create: documentOutput(
    writeProcedure
      .meta({
        openapi: { method: 'POST', path: '/files', tags, summary: 'Upload a file (multipart/form-data)', contentTypes: ['multipart/form-data'] },
        multipart: true,
      })
      .input(uploadInput)
      .mutation(async ({ ctx, input }) => ({ data: await uploadFile(writeContext(ctx), ctx.files, input as Upload) })),
    oneOutput(files),
  ),
  download: documentOutput(
    procedure
      .meta({ openapi: { method: 'GET', path: '/files/{id}/download', tags, summary: 'The bytes of a file' }, binary: true })
      .input(z.strictObject({ id: idParam }))
      .query(({ ctx, input }) => downloadFile(ctx.db, ctx.files, ctx.account.id, input.id)),
    z.string().describe('The file bytes'),
  ),
  update: updateProcedure(files, (ctx, id, input) => updateFile(writeContext(ctx), id, input)),
  delete: deleteProcedure(files, (ctx, id) => deleteFile(writeContext(ctx), ctx.files, id)),
});
