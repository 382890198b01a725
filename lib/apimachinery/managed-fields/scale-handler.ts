// Managed fields through /scale (fieldmanager/scalehandler.go): the parent's replicas owners seen as Scale owners, and back.
import { decodeManagedFields, encodeManagedFields, managerIdentifier, parseIdentifier, type Managed, type ManagedFieldsEntry } from './entries';
import { FieldSet } from './field-set';
import { field } from './path-element';

const REPLICAS = [field('spec'), field('replicas')];
const SCALE_API_VERSION = 'autoscaling/v1';

/** The manager without its apiVersion: how a Scale entry finds the parent entry it came from. */
const ownerKey = (id: string): string => {
  const e = parseIdentifier(id);
  return managerIdentifier({ manager: e.manager, operation: e.operation, subresource: e.subresource });
};

/** ToSubresource: each parent entry owning spec.replicas becomes a Scale entry owning spec.replicas. */
export function scaleEntries(parentEntries: unknown): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const out: Managed = { fields: new Map(), times: new Map() };
  for (const [id, vs] of parent.fields) {
    if (!vs.set.has(REPLICAS)) continue;
    const e = parseIdentifier(id);
    const scaleId = managerIdentifier({ ...e, apiVersion: SCALE_API_VERSION });
    out.fields.set(scaleId, { set: FieldSet.of(REPLICAS), apiVersion: SCALE_API_VERSION, applied: vs.applied });
    out.times.set(scaleId, parent.times.get(id));
  }
  return encodeManagedFields(out);
}

/** ToParent: replicas owners are those of the Scale after the write; everything else of the parent stays. */
export function parentEntriesAfterScale(parentEntries: unknown, scaleEntriesAfter: unknown, parentApiVersion: string): ManagedFieldsEntry[] | undefined {
  const parent = decodeManagedFields(parentEntries);
  const scale = decodeManagedFields(scaleEntriesAfter);
  const scaleOwners = new Map<string, string>();
  for (const [id, vs] of scale.fields) if (vs.set.has(REPLICAS)) scaleOwners.set(ownerKey(id), id);
  const out: Managed = { fields: new Map(), times: new Map() };
  for (const [id, vs] of parent.fields) {
    const keep = !vs.set.has(REPLICAS) || scaleOwners.has(ownerKey(id));
    const set = keep ? vs.set : vs.set.difference(FieldSet.of(REPLICAS));
    scaleOwners.delete(keep && vs.set.has(REPLICAS) ? ownerKey(id) : '');
    if (set.isEmpty()) continue;
    out.fields.set(id, { ...vs, set });
    out.times.set(id, parent.times.get(id));
  }
  for (const scaleId of scaleOwners.values()) {
    const vs = scale.fields.get(scaleId);
    if (!vs) continue;
    const e = parseIdentifier(scaleId);
    const id = managerIdentifier({ ...e, operation: vs.applied ? 'Apply' : 'Update', apiVersion: parentApiVersion });
    out.fields.set(id, { set: FieldSet.of(REPLICAS), apiVersion: parentApiVersion, applied: vs.applied });
    out.times.set(id, scale.times.get(scaleId));
  }
  return encodeManagedFields(out);
}
