// Turns the profile into a seeded sequence of operations and executes each one against the API.
import type { ApiClient, Reply } from './client';
import {
  GROUPS,
  GROUP_LABEL,
  KIND_INFO,
  RUN_LABEL,
  collectionPath,
  fullObject,
  mergePatch,
  objectPath,
  strategicPatch,
  type ObjectRef,
} from './objects';
import { OPS, type KindName, type OpName, type Profile } from './profile';
import type { Recorder, Scope } from './recorder';
import { seededRandom, weightedIndex } from './rng';

export interface PlannedOp {
  op: OpName;
  kind: KindName;
  namespaceIndex: number;
  /** In [0, 1): which object of the pool, which list scope, which label group. */
  pick: number;
  clusterScope: boolean;
  group: number;
}

/** The k-th call returns the k-th operation of the run: the same sequence for the same seed and profile. */
export function planner(profile: Profile): () => PlannedOp {
  const rnd = seededRandom(profile.seed);
  const weights = OPS.map((op) => profile.mix[op]);
  return () => {
    const op = OPS[weightedIndex(weights, rnd())]!;
    const kind = profile.kinds[Math.floor(rnd() * profile.kinds.length)]!;
    const namespaceIndex = Math.floor(rnd() * profile.namespaces);
    const pick = rnd();
    const scopeRoll = rnd();
    const group = Math.floor(rnd() * GROUPS);
    const clusterScope =
      !KIND_INFO[kind].namespaced ||
      profile.listScope === 'cluster' ||
      (profile.listScope === 'both' && scopeRoll < 0.5);
    return { op, kind, namespaceIndex, pick, clusterScope, group };
  };
}

interface PoolEntry {
  ref: ObjectRef;
  busy: number;
}

/** The run's objects per kind and namespace; an object being deleted is taken out first so no request meets a 404. */
export class ObjectPool {
  private readonly entries = new Map<string, PoolEntry[]>();
  private next = 0;

  constructor(readonly runId: string) {}

  private key(kind: KindName, namespace: string | undefined): string {
    return `${kind}|${namespace ?? ''}`;
  }

  newRef(kind: KindName, namespace: string | undefined, group: number): ObjectRef {
    const info = KIND_INFO[kind];
    return {
      info,
      namespace: info.namespaced ? namespace : undefined,
      name: `lt-${this.runId}-${info.short}-${this.next++}`,
      group,
    };
  }

  add(ref: ObjectRef): void {
    const key = this.key(ref.info.kind, ref.namespace);
    let list = this.entries.get(key);
    if (!list) this.entries.set(key, (list = []));
    list.push({ ref, busy: 0 });
  }

  acquire(kind: KindName, namespace: string | undefined, pick: number): PoolEntry | undefined {
    const list = this.entries.get(this.key(kind, KIND_INFO[kind].namespaced ? namespace : undefined));
    if (!list || list.length === 0) return undefined;
    const entry = list[Math.floor(pick * list.length)]!;
    entry.busy += 1;
    return entry;
  }

  release(entry: PoolEntry): void {
    entry.busy -= 1;
  }

  /** Removes an idle object for deletion. */
  take(kind: KindName, namespace: string | undefined, pick: number): ObjectRef | undefined {
    const list = this.entries.get(this.key(kind, KIND_INFO[kind].namespaced ? namespace : undefined));
    if (!list || list.length === 0) return undefined;
    const start = Math.floor(pick * list.length);
    for (let i = 0; i < list.length; i++) {
      const index = (start + i) % list.length;
      if (list[index]!.busy === 0) return list.splice(index, 1)[0]!.ref;
    }
    return undefined;
  }

  size(): number {
    let n = 0;
    for (const list of this.entries.values()) n += list.length;
    return n;
  }
}

export function namespaceName(runId: string, index: number): string {
  return `lt-${runId}-${index}`;
}

/** Called with the resourceVersion of every acknowledged write, for the watchers' delivery lag. */
export type AckListener = (kind: KindName, resourceVersion: string, ackAt: number) => void;

function resourceVersionOf(reply: Reply): string | undefined {
  if (reply.status < 200 || reply.status >= 300) return undefined;
  try {
    const obj = JSON.parse(reply.body) as { metadata?: { resourceVersion?: unknown } };
    return typeof obj.metadata?.resourceVersion === 'string' ? obj.metadata.resourceVersion : undefined;
  } catch {
    return undefined;
  }
}

const statusOf = (reply: Reply): number | string => reply.error ?? reply.status;

export interface ExecutorOptions {
  client: ApiClient;
  profile: Profile;
  runId: string;
  pool: ObjectPool;
  recorder: Recorder;
  onAck: AckListener;
  now: () => number;
}

const APPLY_QUERY = 'fieldManager=orch-loadtest&force=true';

export class Executor {
  constructor(private readonly o: ExecutorOptions) {}

  private record(op: OpName, kind: KindName, scope: Scope, at: number, from: number, reply: Reply): void {
    this.o.recorder.record({ op, resource: kind, scope, latencyMs: this.o.now() - from, status: statusOf(reply), at });
  }

  private async write(
    op: OpName,
    ref: ObjectRef,
    intendedAt: number,
    method: string,
    path: string,
    body: unknown,
    contentType: string,
  ): Promise<Reply> {
    const reply = await this.o.client.request(method, path, {
      body: JSON.stringify(body),
      contentType,
      timeoutMs: 60_000,
    });
    const ackAt = this.o.now();
    this.record(op, ref.info.kind, 'resource', intendedAt, intendedAt, reply);
    const rv = resourceVersionOf(reply);
    if (rv !== undefined) this.o.onAck(ref.info.kind, rv, ackAt);
    return reply;
  }

  async create(ref: ObjectRef, step: number, intendedAt: number, op: OpName = 'create'): Promise<Reply> {
    const reply = await this.write(
      op,
      ref,
      intendedAt,
      'POST',
      collectionPath(ref.info, ref.namespace),
      fullObject(ref, this.o.runId, step, this.o.profile.objectSize),
      'application/json',
    );
    if (reply.status === 201 || reply.status === 200) this.o.pool.add(ref);
    return reply;
  }

  /** Runs one planned operation; `step` (the operation's sequence number) makes every write change the object. */
  async run(p: PlannedOp, step: number, intendedAt: number): Promise<void> {
    const { pool, profile, runId } = this.o;
    const namespace = namespaceName(runId, p.namespaceIndex);
    if (p.op === 'list' || p.op === 'list-rv0' || p.op === 'list-selector') return this.list(p, namespace, intendedAt);
    if (p.op === 'create') return void (await this.create(pool.newRef(p.kind, namespace, p.group), step, intendedAt));
    if (p.op === 'delete') {
      const ref = pool.take(p.kind, namespace, p.pick);
      if (!ref) return void (await this.create(pool.newRef(p.kind, namespace, p.group), step, intendedAt));
      await this.write(
        'delete',
        ref,
        intendedAt,
        'DELETE',
        objectPath(ref.info, ref.namespace, ref.name),
        { kind: 'DeleteOptions', apiVersion: 'v1' },
        'application/json',
      );
      return;
    }
    const entry = pool.acquire(p.kind, namespace, p.pick);
    if (!entry) return void (await this.create(pool.newRef(p.kind, namespace, p.group), step, intendedAt));
    const ref = entry.ref;
    const path = objectPath(ref.info, ref.namespace, ref.name);
    try {
      switch (p.op) {
        case 'get': {
          const reply = await this.o.client.request('GET', path, { timeoutMs: 60_000 });
          this.record('get', p.kind, 'resource', intendedAt, intendedAt, reply);
          break;
        }
        case 'update':
          await this.write(
            'update',
            ref,
            intendedAt,
            'PUT',
            path,
            fullObject(ref, runId, step, profile.objectSize),
            'application/json',
          );
          break;
        case 'patch-merge':
          await this.write(
            'patch-merge',
            ref,
            intendedAt,
            'PATCH',
            path,
            mergePatch(ref, step),
            'application/merge-patch+json',
          );
          break;
        case 'patch-strategic':
          await this.write(
            'patch-strategic',
            ref,
            intendedAt,
            'PATCH',
            path,
            strategicPatch(ref, step),
            'application/strategic-merge-patch+json',
          );
          break;
        case 'apply':
          await this.write(
            'apply',
            ref,
            intendedAt,
            'PATCH',
            `${path}?${APPLY_QUERY}`,
            fullObject(ref, runId, step, profile.objectSize),
            'application/apply-patch+yaml',
          );
          break;
        default:
          throw new Error(`unhandled operation ${p.op}`);
      }
    } finally {
      pool.release(entry);
    }
  }

  /** A LIST, following `continue` pages; every page is one request (the first timed from the intended send). */
  private async list(p: PlannedOp, namespace: string, intendedAt: number): Promise<void> {
    const info = KIND_INFO[p.kind];
    const scope: Scope = p.clusterScope ? 'cluster' : 'namespace';
    const base = collectionPath(info, p.clusterScope ? undefined : namespace);
    const params = new URLSearchParams();
    if (this.o.profile.listLimit > 0) params.set('limit', String(this.o.profile.listLimit));
    if (p.op === 'list-rv0') params.set('resourceVersion', '0');
    if (p.op === 'list-selector')
      params.set('labelSelector', `${RUN_LABEL}=${this.o.runId},${GROUP_LABEL}=g${p.group}`);
    let from = intendedAt;
    for (let page = 0; page < 10_000; page++) {
      const reply = await this.o.client.request('GET', `${base}?${params.toString()}`, { timeoutMs: 120_000 });
      this.record(p.op, p.kind, scope, page === 0 ? intendedAt : from, from, reply);
      if (reply.status !== 200) return;
      let token: unknown;
      try {
        token = (JSON.parse(reply.body) as { metadata?: { continue?: unknown } }).metadata?.continue;
      } catch {
        return;
      }
      if (typeof token !== 'string' || token === '' || p.op === 'list-rv0') return;
      params.set('continue', token);
      from = this.o.now();
    }
  }
}
