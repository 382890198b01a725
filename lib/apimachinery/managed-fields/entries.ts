// metadata.managedFields ↔ manager identifiers and their field sets (fieldmanager/internal managedfields.go).
import { BoundedCache } from './bounded-cache';
import { FieldSet } from './field-set';
import { goJsonOrdered } from '../json/go-marshal';
import type { ManagedFieldsMap } from './updater';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

export interface Managed {
  fields: ManagedFieldsMap;
  /** Entry times by manager identifier (RFC 3339, seconds). */
  times: Map<string, string | undefined>;
}

export const emptyManaged = (): Managed => ({ fields: new Map(), times: new Map() });

/** BuildManagerIdentifier: the entry without fields and time (and without apiVersion for appliers), as JSON. */
export function managerIdentifier(
  entry: Pick<ManagedFieldsEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
): string {
  const id: Record<string, string> = {};
  if (entry.manager) id['manager'] = entry.manager;
  if (entry.operation) id['operation'] = entry.operation;
  if (entry.apiVersion && entry.operation !== 'Apply') id['apiVersion'] = entry.apiVersion;
  if (entry.subresource) id['subresource'] = entry.subresource;
  return goJsonOrdered(id);
}

/** Identifiers repeat on every write of an object. */
const parsedIdentifiers = new BoundedCache<Readonly<ManagedFieldsEntry>>(1024);

function parseIdentifierUncached(id: string): Readonly<ManagedFieldsEntry> {
  try {
    return Object.freeze(JSON.parse(id) as ManagedFieldsEntry);
  } catch {
    return Object.freeze({ manager: id });
  }
}

export const parseIdentifier = (id: string): Readonly<ManagedFieldsEntry> =>
  parsedIdentifiers.get(id, parseIdentifierUncached);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** DecodeManagedFields; throws with Kubernetes' texts on an invalid entry. */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new Error('managedFields must be a list');
  entries.forEach((raw: unknown, i) => {
    const entry = (isObject(raw) ? raw : {}) as ManagedFieldsEntry;
    if (entry.operation !== 'Apply' && entry.operation !== 'Update')
      throw new Error('operation must be `Apply` or `Update`');
    if (!entry.apiVersion) throw new Error('apiVersion must not be empty');
    if (!entry.fieldsType) throw new Error(`missing fieldsType in managed fields entry ${i}`);
    if (entry.fieldsType !== 'FieldsV1')
      throw new Error(`invalid fieldsType "${entry.fieldsType}" in managed fields entry ${i}`);
    const id = managerIdentifier(entry);
    managed.fields.set(id, {
      set: FieldSet.fromFields(entry.fieldsV1 ?? {}),
      apiVersion: entry.apiVersion,
      applied: entry.operation === 'Apply',
    });
    managed.times.set(id, entry.time);
  });
  return managed;
}

const seconds = (time: string | undefined): number => (time ? Math.floor(Date.parse(time) / 1000) : 0);

/** encodeManagedFields: one entry per manager, Apply before Update, then by time, manager, apiVersion, subresource. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] | undefined {
  if (managed.fields.size === 0) return undefined;
  const entries: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const parsed = parseIdentifier(id);
    const entry: ManagedFieldsEntry = {};
    if (parsed.manager) entry.manager = parsed.manager;
    entry.operation = vs.applied ? 'Apply' : 'Update';
    entry.apiVersion = vs.apiVersion;
    const time = managed.times.get(id);
    if (time) entry.time = time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = vs.set.toFields();
    if (parsed.subresource) entry.subresource = parsed.subresource;
    entries.push(entry);
  }
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation ?? '', q.operation ?? '') ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager ?? '', q.manager ?? '') ||
      cmp(p.apiVersion ?? '', q.apiVersion ?? '') ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
}

/**
 * isResetManagedFields: exactly one all-empty entry. Kubernetes also resets on a non-nil empty list, but a
 * decoded `[]` reaches it as nil, so an empty list keeps the stored entries (the spec's rule).
 */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  return (
    entries.length === 1 &&
    isObject(entries[0]) &&
    Object.values(entries[0]).every((v) => v === undefined || v === null || v === '')
  );
}
