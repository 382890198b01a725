// Settles a write whose answer was lost (connection dropped, etcd timed out, leader changed) by reading etcd back,
// instead of sending the write again: a resent create would find its own object and report 409, a resent
// compare-and-swap would conflict with its own change and apply the update a second time.
// Every verdict here is read from etcd's state and history; what cannot be proven is left unknown.
import type { Etcd3, IKeyValue } from 'etcd3';
import { retryingRead } from './etcd-errors';

/** How far back through a key's history a lost compare-and-swap is looked for. */
const MAX_HISTORY_STEPS = 16;

export type Settled =
  /** The write was applied, at this revision. */
  | { applied: true; revision: string }
  /** The write was not applied and never can be (its compare no longer holds). */
  | { applied: false }
  /** Not known: the write may still be pending in etcd, or the evidence is gone (deleted, compacted, unreadable). */
  | undefined;

async function readAt(
  client: Etcd3,
  key: Buffer,
  revision?: number,
): Promise<{ kv: IKeyValue | undefined; revision: string }> {
  const res = await retryingRead(() => client.kv.range(revision === undefined ? { key } : { key, revision }));
  return { kv: res.kvs[0], revision: res.header.revision };
}

/**
 * A create (put if the key has no object) whose answer was lost: applied when the key holds the object with the uid
 * written; not applied when it holds another object (that object was there first, or the compare-on-absence could not
 * hold); unknown when the key is empty, since the create may still be committed.
 */
export async function settleCreate(client: Etcd3, key: Buffer, uid: string | undefined): Promise<Settled> {
  try {
    const { kv } = await readAt(client, key);
    if (!kv) return undefined;
    if (uid !== undefined && uidOf(kv.value) === uid) return { applied: true, revision: kv.create_revision };
    return { applied: false };
  } catch {
    return undefined;
  }
}

/**
 * A compare-and-swap on mod_revision `expected` (put `written`, or a delete when `written` is null) whose answer was
 * lost. While the key still has that mod_revision the swap may yet be applied: unknown. Once the key changed, the first
 * change after `expected` decides: the swap applied if that change is ours (the bytes written, or the deletion), and
 * otherwise never will, since its compare no longer holds.
 */
export async function settleSwap(
  client: Etcd3,
  key: Buffer,
  expected: string,
  written: Buffer | null,
): Promise<Settled> {
  try {
    const { kv: current, revision } = await readAt(client, key);
    // Gone: a delete of ours, or one that another writer made while ours was pending; either way the object is gone
    // (at or before the revision read).
    if (!current) return written === null ? { applied: true, revision } : undefined;
    if (current.mod_revision === expected) return undefined;
    const expectedRevision = Number(expected);
    let later = current;
    for (let step = 0; step < MAX_HISTORY_STEPS; step++) {
      const { kv: before } = await readAt(client, key, Number(later.mod_revision) - 1);
      // A gap (deleted, then created again) or a compacted history: whether ours came first cannot be read back.
      if (!before || Number(before.mod_revision) < expectedRevision) return undefined;
      if (Number(before.mod_revision) === expectedRevision) {
        const ours = written !== null && later.value.equals(written);
        return ours ? { applied: true, revision: later.mod_revision } : { applied: false };
      }
      later = before;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function uidOf(value: Buffer): string | undefined {
  try {
    const uid = (JSON.parse(value.toString('utf8')) as { metadata?: { uid?: unknown } }).metadata?.uid;
    return typeof uid === 'string' ? uid : undefined;
  } catch {
    return undefined;
  }
}
