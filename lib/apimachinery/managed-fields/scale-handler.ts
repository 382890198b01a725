// Managed fields through /scale (fieldmanager/scalehandler.go): the parent's replicas owners seen as Scale owners, and back.
import {
  decodeManagedFields,
  encodeManagedFields,
  managerIdentifier,
  parseIdentifier,
  type Managed,
  type ManagedFieldsEntry,
} from './entries';
import { FieldSet } from './field-set';
import { field, type Path } from './path-element';

const REPLICAS_IN_SCALE = [field('spec'), field('replicas')];
const SCALE_API_VERSION = 'autoscaling/v1';

/** ResourcePathMappings: the replicas path of the parent in each of its group/versions. */
export type ReplicasPathMappings = Readonly<Record<string, Path>>;

/** The manager without its apiVersion: how a Scale entry finds the parent entry it came from. */
const ownerKey = (id: string): string => {
  const e = parseIdentifier(id);
  return managerIdentifier({ manager: e.manager, operation: e.operation, subresource: e.subresource });
};

/** ToSubresource: each parent entry owning its version's replicas path becomes a Scale entry owning spec.replicas. */
export function scaleEntries(parentEntries: unknown, mappings: ReplicasPathMappings): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const out: Managed = { fields: new Map(), times: new Map() };
  for (const [id, vs] of parent.fields) {
    const path = mappings[vs.apiVersion];
    if (path === undefined || !vs.set.has(path)) continue;
    out.fields.set(id, { set: FieldSet.of(REPLICAS_IN_SCALE), apiVersion: SCALE_API_VERSION, applied: vs.applied });
    out.times.set(id, parent.times.get(id));
  }
  return encodeManagedFields(out);
}

/**
 * ToParent: replicas owners are those of the Scale after the write; everything else of the parent stays, except
 * entries of versions without a mapping, which are dropped. Scale owners new to the parent take the parent's time
 * under their identifier (none for Update entries, as in Kubernetes).
 */
export function parentEntriesAfterScale(
  parentEntries: unknown,
  scaleEntriesAfter: unknown,
  parentApiVersion: string,
  mappings: ReplicasPathMappings,
): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale = decodeManagedFields(scaleEntriesAfter);
  const scaleOwners = new Map<string, string>();
  for (const id of scale.fields.keys()) scaleOwners.set(ownerKey(id), id);
  const out: Managed = { fields: new Map(), times: new Map() };
  for (const [id, vs] of parent.fields) {
    const path = mappings[vs.apiVersion];
    if (path === undefined) continue;
    let set = vs.set;
    if (vs.set.has(path)) {
      if (scaleOwners.has(ownerKey(id))) scaleOwners.delete(ownerKey(id));
      else set = vs.set.difference(FieldSet.of(path));
    }
    if (set.isEmpty()) continue;
    out.fields.set(id, { ...vs, set });
    out.times.set(id, parent.times.get(id));
  }
  const replicas = mappings[parentApiVersion];
  for (const scaleId of scaleOwners.values()) {
    const vs = scale.fields.get(scaleId);
    if (!vs || !vs.set.has(REPLICAS_IN_SCALE) || replicas === undefined) continue;
    const e = parseIdentifier(scaleId);
    const id = managerIdentifier({ ...e, operation: vs.applied ? 'Apply' : 'Update', apiVersion: parentApiVersion });
    out.fields.set(id, { set: FieldSet.of(replicas), apiVersion: parentApiVersion, applied: vs.applied });
    out.times.set(id, parent.times.get(scaleId));
  }
  return encodeManagedFields(out);
}
