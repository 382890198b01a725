// Every managedFields entry the field manager writes for a corpus of creates, updates and applies, as one digest: the
// golden test holds it to the digest of the build before the fast paths, so their output stays byte-identical.
import { createHash } from 'node:crypto';
import type { ApiObject } from '../meta/types';
import { corpus, Random, SCOPES, vary } from './fast-path.fixture';
import { applyToObject, updateManagedFields } from './field-manager';

const VARIATIONS = 300;

const entriesOf = (obj: ApiObject | undefined): string => JSON.stringify(obj?.metadata.managedFields ?? null);

function attempt(run: () => string): string {
  try {
    return run();
  } catch (err) {
    return `throws ${err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err)}`;
  }
}

/** Decoded bodies always have metadata (the decoder makes it an object). */
function withMetadata(v: unknown): ApiObject {
  const obj = structuredClone(v) as ApiObject;
  const meta: unknown = obj.metadata;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? obj : { ...obj, metadata: {} };
}

/** The entries written for each create, then an update and an apply on top of it, by a seeded list of variations. */
export function managedFieldsRecords(): string[] {
  const bases = corpus();
  const random = new Random(20261127);
  const records: string[] = [];
  for (let i = 0; i < bases.length + VARIATIONS; i++) {
    const base = i < bases.length ? (bases[i] as ApiObject) : random.pick(bases);
    const created = withMetadata(i < bases.length ? base : vary(base, random));
    const changed = withMetadata(vary(created, random));
    const config = withMetadata(vary(created, random));
    for (const scope of SCOPES[base.kind ?? ''] ?? []) {
      const live = withMetadata(created);
      delete live.metadata.managedFields;
      records.push(attempt(() => entriesOf(updateManagedFields(undefined, live, 'creator', scope))));
      live.metadata.uid = 'stored-uid';
      const next = { ...withMetadata(changed), metadata: { ...withMetadata(changed).metadata } };
      next.metadata.managedFields = structuredClone(live.metadata.managedFields);
      records.push(attempt(() => entriesOf(updateManagedFields(live, next, 'updater', scope))));
      const { managedFields: _dropped, ...configMeta } = config.metadata;
      const applied = { ...config, apiVersion: scope.apiVersion, metadata: configMeta };
      records.push(attempt(() => entriesOf(applyToObject(live, applied, 'applier', random.next() < 0.5, scope))));
    }
  }
  return records;
}

/** sha256 of the records, one per line. */
export const managedFieldsDigest = (): string =>
  createHash('sha256').update(managedFieldsRecords().join('\n')).digest('hex');
