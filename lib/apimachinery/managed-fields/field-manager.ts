// The field manager of one write path: Kubernetes' fieldmanager chain (skip-non-applied, cap, manager info, strip-meta) over the updater.
import { badRequest, unknownError, type StatusError } from '../errors';
import type { ApiObject } from '../meta/types';
import type { SchemaNode } from '../schema/node';
import { conflictError } from './conflict';
import {
  decodeManagedFields,
  emptyManaged,
  encodeManagedFields,
  isResetManagedFields,
  managerIdentifier,
  type Managed,
} from './entries';
import type { FieldSet } from './field-set';
import { allowedConflictsFromLastApplied, refreshLastApplied } from './last-applied';
import { goShaped } from './normalize';
import { STRIPPED_FIELDS } from './reset-fields';
import { toFieldSet } from './to-field-set';
import { SchemaMismatch } from './shape';
import { applyManagers, Conflicts, updateManagers, type ManagedFieldsMap, type VersionView } from './updater';
import { capUpdateManagers } from './cap-managers';

const BEFORE_FIRST_APPLY = 'before-first-apply';
const CURRENT_OPERATION = 'current-operation';
/** The manager kubectl's server-side apply uses: the only one the last-applied annotation migration serves. */
const KUBECTL_MANAGER = 'kubectl';

export interface FieldManagerScope {
  /** Schema of the kind written (the Scale kind for /scale). */
  schema: SchemaNode | undefined;
  /** group/version of the request. */
  apiVersion: string;
  kind: string;
  /** '' for the main resource. */
  subresource: string;
  /** Reset fields of this write path. */
  ignored: FieldSet;
  /** The kind in another of its apiVersions, for multi-version kinds (entries are compared in their own version). */
  atVersion?: (apiVersion: string) => VersionView | undefined;
  now?: () => string;
}

let lastSecond = Number.NaN;
let lastSecondText = '';

/** RFC 3339 in whole seconds; the text is kept for the rest of its second (every write asks). */
function nowSeconds(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastSecondText = new Date(second * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  }
  return lastSecondText;
}

function stripManager(fields: ManagedFieldsMap, id: string): void {
  const vs = fields.get(id);
  if (!vs) return;
  const set = vs.set.difference(STRIPPED_FIELDS);
  if (set.isEmpty()) fields.delete(id);
  else fields.set(id, { ...vs, set });
}

/** managedFieldsUpdater + stripMeta + structured merge Update, then capManagers: `manager` owns what it changed. */
function trackUpdate(
  live: unknown,
  next: unknown,
  managed: Managed,
  manager: string,
  scope: FieldManagerScope,
): Managed {
  const id = managerIdentifier({
    manager: manager || 'unknown',
    operation: 'Update',
    apiVersion: scope.apiVersion,
    subresource: scope.subresource,
  });
  const options = { schema: scope.schema, ignored: scope.ignored, atVersion: scope.atVersion };
  // The written objects may be in the storage version: they are tracked in the request's (toVersioned upstream).
  const view = scope.atVersion?.(scope.apiVersion);
  const fields = updateManagers(
    view ? view.convert(live) : live,
    view ? view.convert(next) : next,
    scope.apiVersion,
    managed.fields,
    CURRENT_OPERATION,
    options,
  );
  stripManager(fields, CURRENT_OPERATION);
  const times = new Map(managed.times);
  const current = fields.get(CURRENT_OPERATION);
  if (current) {
    fields.delete(CURRENT_OPERATION);
    const previous = fields.get(id);
    fields.set(id, previous ? { ...current, set: current.set.union(previous.set) } : current);
    times.set(id, (scope.now ?? nowSeconds)());
  }
  return capUpdateManagers({ fields, times });
}

function emptyObject(scope: FieldManagerScope): ApiObject {
  return { apiVersion: scope.apiVersion, kind: scope.kind, metadata: {} };
}

/** decodeLiveOrNew: subresources keep the stored entries; a reset list starts afresh; an empty or invalid list keeps the stored ones. */
function managedOfUpdate(live: ApiObject | undefined, obj: ApiObject, ignoreNew: boolean): Managed {
  if (ignoreNew) return decodeManagedFields(live?.metadata.managedFields);
  const sent = obj.metadata.managedFields;
  if (isResetManagedFields(sent)) return emptyManaged();
  // None sent (every create that does not copy an object): nothing to decode.
  if (sent !== undefined && sent !== null) {
    try {
      const managed = decodeManagedFields(sent);
      if (managed.fields.size > 0) return managed;
    } catch {
      // invalid entries in the request: the stored ones stand
    }
  }
  return decodeManagedFields(live?.metadata.managedFields);
}

function setManagedFields(obj: ApiObject, managed: Managed): void {
  const entries = encodeManagedFields(managed);
  if (entries === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = entries as ApiObject['metadata']['managedFields'];
}

/**
 * A create, update or non-apply patch by `manager` (UpdateNoErrors): returns `obj` with its
 * managedFields recorded; an object stored without tracking stays untracked; any failure drops them.
 */
export function updateManagedFields(
  live: ApiObject | undefined,
  obj: ApiObject,
  manager: string,
  scope: FieldManagerScope,
): ApiObject {
  let managed: Managed;
  try {
    managed = managedOfUpdate(live, obj, scope.subresource !== '');
  } catch {
    return obj;
  }
  delete obj.metadata.managedFields;
  try {
    const isCreate = !live?.metadata.uid;
    if (managed.fields.size === 0 && !isCreate) return obj;
    setManagedFields(obj, trackUpdate(live ?? emptyObject(scope), obj, managed, manager, scope));
  } catch {
    delete obj.metadata.managedFields;
  }
  return obj;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out;
}

/** objectGVKNN: `namespace/name; group/version, Kind=Kind` (the core group prints as an empty group). */
function objectAt(object: Record<string, unknown>, scope: FieldManagerScope): string {
  const meta = isObject(object['metadata']) ? object['metadata'] : {};
  const groupVersion = scope.apiVersion.includes('/') ? scope.apiVersion : `/${scope.apiVersion}`;
  return `${String(meta['namespace'] ?? '')}/${String(meta['name'] ?? '')}; ${groupVersion}, Kind=${scope.kind}`;
}

/** Kubernetes answers this bare 500; the configuration is at fault, so it is a 400 here with the same text. */
function typedPatchError(config: Record<string, unknown>, scope: FieldManagerScope, err: SchemaMismatch): StatusError {
  return badRequest(`failed to create typed patch object (${objectAt(config, scope)}): ${err.message}`);
}

/** The configuration's values fit the schema's shapes (unknown fields aside, which fieldValidation has dealt with). */
function typesWithoutUnknowns(config: Record<string, unknown>, scope: FieldManagerScope): boolean {
  try {
    toFieldSet(config, scope.schema);
    return true;
  } catch (err) {
    if (!(err instanceof SchemaMismatch)) throw err;
    return false;
  }
}

/**
 * The stored object has a value server-side apply cannot type (a list-map item without its key, written by an update,
 * which tracks no fields then, as UpdateNoErrors does). Kubernetes answers a bare 500; here it is a 400 with its text.
 */
function typedLiveError(live: ApiObject, scope: FieldManagerScope): StatusError | undefined {
  try {
    toFieldSet(goShaped(stripManaged(live), scope.schema), scope.schema);
    return undefined;
  } catch (err) {
    if (!(err instanceof SchemaMismatch)) throw err;
    return badRequest(`failed to create typed live object (${objectAt(live, scope)}): ${err.message}`);
  }
}

/** structuredMergeManager.Apply under the manager chain: the merged object and its managers, or undefined when nothing changes. */
function applyOnce(
  live: ApiObject,
  config: Record<string, unknown>,
  managed: Managed,
  manager: string,
  force: boolean,
  scope: FieldManagerScope,
): { object: ApiObject | undefined; managed: Managed } {
  const id = managerIdentifier({ manager, operation: 'Apply', subresource: scope.subresource });
  const liveShaped = goShaped(stripManaged(live), scope.schema);
  let outcome;
  try {
    outcome = applyManagers(liveShaped, config, scope.apiVersion, managed.fields, id, force, {
      schema: scope.schema,
      ignored: scope.ignored,
      atVersion: scope.atVersion,
    });
  } catch (err) {
    if (!(err instanceof SchemaMismatch)) throw err;
    // As structuredMergeManager.Apply types them: the configuration first, then the live object.
    if (!typesWithoutUnknowns(config, scope)) throw typedPatchError(config, scope, err);
    throw typedLiveError(live, scope) ?? typedPatchError(config, scope, err);
  }
  stripManager(outcome.managers, id);
  const times = new Map(managed.times);
  if (outcome.object !== undefined) times.set(id, (scope.now ?? nowSeconds)());
  const object = outcome.object === undefined ? undefined : (dropNulls(outcome.object) as ApiObject);
  return { object, managed: { fields: outcome.managers, times } };
}

function stripManaged(obj: ApiObject): ApiObject {
  const { managedFields: _managedFields, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * Server-side apply of `config` by `manager` to `live` (undefined: the object does not exist yet).
 * Throws the 400s for a bad configuration and the 409 Conflict unless `force`.
 */
export function applyToObject(
  live: ApiObject | undefined,
  config: Record<string, unknown>,
  manager: string,
  force: boolean,
  scope: FieldManagerScope,
): ApiObject {
  let managed: Managed;
  try {
    managed = decodeManagedFields(live?.metadata.managedFields);
  } catch (err) {
    throw unknownError(`failed to decode managed fields: ${err instanceof Error ? err.message : String(err)}`);
  }
  const base = live ?? emptyObject(scope);
  if (managed.fields.size === 0 && live !== undefined)
    try {
      managed = trackUpdate(emptyObject(scope), stripManaged(live), managed, BEFORE_FIRST_APPLY, scope);
    } catch (err) {
      throw (err instanceof SchemaMismatch && typedLiveError(live, scope)) || err;
    }
  const version = typeof config['apiVersion'] === 'string' ? config['apiVersion'] : '';
  if (version !== scope.apiVersion)
    throw badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${version}, expected: ${scope.apiVersion}`,
    );
  const rawMeta = config['metadata'];
  if (rawMeta !== undefined && rawMeta !== null && typeof rawMeta !== 'object')
    // structured-merge-diff's mapValue on a scalar: `%v` of its value wrapper prints `&{x}`.
    throw typedPatchError(config, scope, new SchemaMismatch(`.metadata: expected map, got &{${String(rawMeta)}}`));
  const meta = isObject(rawMeta) ? rawMeta : {};
  if (meta['managedFields'] !== undefined && meta['managedFields'] !== null)
    throw badRequest('metadata.managedFields must be nil');

  let result;
  try {
    result = applyOnce(base, config, managed, manager, force, scope);
  } catch (err) {
    if (!(err instanceof Conflicts)) throw err;
    if (manager !== KUBECTL_MANAGER || live === undefined) throw conflictError(err.conflicts);
    const allowed = allowedConflictsFromLastApplied(live, scope.schema);
    const remaining = allowed === undefined ? err.conflicts : err.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw conflictError(remaining);
    result = applyOnce(base, config, managed, manager, true, scope);
  }
  const object = result.object ?? stripManaged(structuredClone(base));
  if (manager === KUBECTL_MANAGER) refreshLastApplied(object, config);
  setManagedFields(object, result.managed);
  return object;
}
