import { z } from 'zod';
import type { Metadata } from '../../db/dialect';
import { invalid } from '../errors';

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_STRING = 500;

const value = z.union([z.string().max(METADATA_MAX_STRING), z.number().finite(), z.boolean()]);

export const metadataRead = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** What a write may send: values, or null to remove a key. The 50-key bound is checked after merging. */
export const metadataInput = z
  .record(z.string().min(1).max(255), value.nullable())
  .refine((m) => Object.keys(m).length <= METADATA_MAX_KEYS, `at most ${METADATA_MAX_KEYS} keys`);

/** Metadata as stored and read (one definition, with the column: db/dialect.ts). */
export type { Metadata } from '../../db/dialect';
/** Metadata as written: values, or null to remove a key. */
export type MetadataPatch = z.infer<typeof metadataInput>;

/** Applies a metadata write to the stored object: keys merge, null removes. Returns null when over the key bound. */
export function mergeMetadata(stored: Metadata, patch: MetadataPatch | undefined): Metadata | null {
  if (!patch) return stored;
  const out: Metadata = { ...stored };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return Object.keys(out).length > METADATA_MAX_KEYS ? null : out;
}

/** mergeMetadata for a write: over the key bound is a 422 naming metadata. */
export function mergedMetadataOrFail(stored: Metadata, patch: MetadataPatch | undefined): Metadata {
  const merged = mergeMetadata(stored, patch);
  if (!merged) throw invalid('metadata', `metadata may hold at most ${METADATA_MAX_KEYS} keys`);
  return merged;
}
