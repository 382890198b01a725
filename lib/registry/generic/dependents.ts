// Background collection (the garbage collector's attemptToDelete): an index of owner uid → dependents fed by the
// collector's watches, and the check that deletes a dependent once a live lookup shows none of its owners exists.
import { StatusError } from '../../apimachinery/errors';
import type { ApiObject, OwnerReference } from '../../apimachinery/meta/types';
import type { GenericStore } from './store';

/** Which dependents (queue keys) name which owner uids, as last seen by the watches. */
export class DependentsIndex {
  readonly #ownersOf = new Map<string, string[]>();
  readonly #dependentsOf = new Map<string, Set<string>>();

  /** Records `obj` under `key` (undefined: the object is gone). */
  observe(key: string, obj: ApiObject | undefined): void {
    if (!this.#ownersOf.has(key) && !obj?.metadata.ownerReferences?.length) return; // nothing indexed, nothing to index
    for (const uid of this.#ownersOf.get(key) ?? []) {
      const set = this.#dependentsOf.get(uid);
      set?.delete(key);
      if (set?.size === 0) this.#dependentsOf.delete(uid);
    }
    this.#ownersOf.delete(key);
    const uids = (obj?.metadata.ownerReferences ?? [])
      .map((ref) => ref.uid)
      .filter((uid): uid is string => Boolean(uid));
    if (uids.length === 0) return;
    this.#ownersOf.set(key, uids);
    for (const uid of uids) {
      const set = this.#dependentsOf.get(uid) ?? new Set<string>();
      set.add(key);
      this.#dependentsOf.set(uid, set);
    }
  }

  dependentsOf(uid: string): string[] {
    return [...(this.#dependentsOf.get(uid) ?? [])];
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof StatusError && err.code === 404;
}

/** The store serving an owner reference's group and kind (any version: versions of a kind share storage). */
export function storeForReference(stores: readonly GenericStore[], ref: OwnerReference): GenericStore | undefined {
  const slash = (ref.apiVersion ?? '').lastIndexOf('/');
  const group = slash < 0 ? '' : (ref.apiVersion ?? '').slice(0, slash);
  return stores.find((s) => s.definition.kind === ref.kind && s.definition.group === group);
}

type OwnerState = 'exists' | 'absent' | 'unknown';

/** Live lookup of one owner: absent when no object of that name exists or it has another uid. */
async function ownerState(
  stores: readonly GenericStore[],
  dependent: ApiObject,
  ref: OwnerReference,
): Promise<OwnerState> {
  const store = storeForReference(stores, ref);
  // A kind this server does not serve cannot be verified; the dependent is left alone (upstream retries).
  if (!store) return 'unknown';
  if (store.namespaced && !dependent.metadata.namespace) return 'unknown';
  try {
    const owner = await store.get(store.namespaced ? (dependent.metadata.namespace ?? '') : '', ref.name ?? '');
    return owner.metadata.uid === ref.uid ? 'exists' : 'absent';
  } catch (err) {
    if (isNotFound(err)) return 'absent';
    throw err;
  }
}

/**
 * attemptToDelete for one dependent: when every owner is absent (verified live), the dependent is deleted in the
 * background (uid precondition, so a recreated object of that name is spared); when only some are absent, the
 * dangling references are removed. Returns what it did, for logs.
 */
export async function attemptToDelete(
  stores: readonly GenericStore[],
  store: GenericStore,
  namespace: string,
  name: string,
): Promise<'deleted' | 'pruned' | 'kept'> {
  let dependent: ApiObject;
  try {
    dependent = await store.get(namespace, name);
  } catch (err) {
    if (isNotFound(err)) return 'kept';
    throw err;
  }
  const refs = dependent.metadata.ownerReferences ?? [];
  if (refs.length === 0 || dependent.metadata.deletionTimestamp) return 'kept';
  const states = await Promise.all(refs.map((ref) => ownerState(stores, dependent, ref)));
  const dangling = new Set(refs.filter((_, i) => states[i] === 'absent').map((ref) => ref.uid));
  if (dangling.size === 0) return 'kept';
  const uid = dependent.metadata.uid ?? '';
  try {
    if (dangling.size === refs.length) {
      await store.delete(
        namespace,
        name,
        { propagationPolicy: 'Background', preconditions: { uid } },
        { dryRun: false },
      );
      return 'deleted';
    }
    await store.patch(
      namespace,
      name,
      (cur) => {
        if (cur.metadata.uid !== uid) return cur;
        return {
          ...cur,
          metadata: {
            ...cur.metadata,
            ownerReferences: (cur.metadata.ownerReferences ?? []).filter((r) => !dangling.has(r.uid)),
          },
        };
      },
      { dryRun: false },
    );
    return 'pruned';
  } catch (err) {
    // gone meanwhile, or replaced by another object of that name (uid precondition): nothing left to collect
    if (isNotFound(err) || (err instanceof StatusError && err.code === 409)) return 'kept';
    throw err;
  }
}
