import { z } from 'zod';
import { deleteFile, downloadFile, updateFile, uploadFile } from '../domain/files';
import { writeContext } from '../domain/write-context';
import { files, uploadInput } from '../resources/files';
import { idParam, oneOutput } from '../resources/queries';
import { documentOutput, procedure, router, writeProcedure } from '../trpc';
import { readProcedures } from './read';
import { deleteProcedure, updateProcedure } from './write';

const tags = ['files'];

export const filesRouter = router({
  ...readProcedures(files),
  create: documentOutput(
    writeProcedure
      .meta({
        openapi: {
          method: 'POST',
          path: '/files',
          tags,
          summary: 'Upload a file (multipart/form-data)',
          contentTypes: ['multipart/form-data'],
        },
        multipart: true,
      })
      .input(uploadInput)
      .mutation(async ({ ctx, input }) => ({ data: await uploadFile(writeContext(ctx), ctx.files, input) })),
    oneOutput(files),
  ),
  download: documentOutput(
    procedure
      .meta({
        openapi: {
          method: 'GET',
          path: '/files/{id}/download',
          tags,
          summary: 'The bytes of a file',
          description:
            'The file as uploaded, as an attachment with its file name; Content-Type is the type read from the bytes at upload (mime_type).',
        },
        binary: true,
      })
      .input(z.strictObject({ id: idParam }))
      .query(({ ctx, input }) => downloadFile(ctx.db, ctx.files, ctx.account.id, input.id)),
    z.string().describe('The file bytes'),
  ),
  update: updateProcedure(files, (ctx, id, input) => updateFile(writeContext(ctx), id, input)),
  delete: deleteProcedure(files, (ctx, id) => deleteFile(writeContext(ctx), ctx.files, id)),
});
