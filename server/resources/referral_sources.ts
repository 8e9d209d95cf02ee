import { z } from 'zod';
import * as t from '../../db/schema';
import { defineResource } from './define';
import { f, standardFields } from './fields';

export const referralSources = defineResource({
  name: 'referral_sources',
  singular: 'referral source',
  permission: 'patients',
  description: 'Where patients come from (a GP practice, a campaign...). Referenced by patients.referral_source_id.',
  table: t.referralSources,
  write: ['create', 'update'],
  fields: {
    id: f.id(),
    name: f.string({
      maxLength: 255,
      filterable: true,
      sortable: true,
      write: 'required',
      staff: 'required',
      input: z.string().trim().min(1).max(255),
    }),
    category: f.string({ maxLength: 255, nullable: true, filterable: true, write: 'optional', staff: 'optional' }),
    active: f.boolean({
      filterable: true,
      write: 'optional',
      staff: 'optional',
      description: 'Only active sources can be given as a referral (default true)',
    }),
    ...standardFields(),
  },
});
