// A create/patch/delete load on HorizontalPodAutoscalers (autoscaling/v1: small, no controller acts on them) for fault tests, recording every request with its timing and answer.
// Each object has a name no other request uses, and each patch appends a finalizer no other patch adds, so that
// a 409 for the object a create made, or a patch applied twice, shows in the answers and in etcd.
import type { ApiClient, ApiResponse } from '../helpers/test-server';

export type Op = 'create' | 'patch' | 'clear' | 'delete';

export interface Recorded {
  op: Op;
  name: string;
  /** The finalizer a patch appends. */
  finalizer?: string;
  start: number;
  end: number;
  status: number;
  body: ApiResponse['body'];
}

export interface ObjectRecord {
  name: string;
  /** uid and resourceVersion of the 201, when the create answered 201. */
  created?: { uid: string; resourceVersion: string };
  /** Finalizers whose patch answered 200. */
  patched: string[];
  deleted: boolean;
  /** The delete answered 504: it may or may not have been applied. */
  deleteUnknown?: boolean;
  /** The patch clearing the finalizers answered 200: the object keeps none of them. */
  cleared?: boolean;
  /** The patch clearing the finalizers answered 504: it may or may not have been applied. */
  clearUnknown?: boolean;
}

export interface WriteLoad {
  readonly requests: Recorded[];
  readonly objects: Map<string, ObjectRecord>;
  stop(): Promise<void>;
}

const PATCHES_PER_OBJECT = 2;

export function startWriteLoad(api: ApiClient, namespace: string, workers: number, prefix = 'load'): WriteLoad {
  const requests: Recorded[] = [];
  const objects = new Map<string, ObjectRecord>();
  let stopped = false;
  const base = collectionPath(namespace);

  const send = async (
    op: Op,
    name: string,
    call: () => Promise<ApiResponse>,
    finalizer?: string,
  ): Promise<Recorded> => {
    const start = Date.now();
    let res: ApiResponse;
    try {
      res = await call();
    } catch (err) {
      res = { status: 0, headers: new Headers(), text: String(err), body: undefined };
    }
    const rec: Recorded = {
      op,
      name,
      start,
      end: Date.now(),
      status: res.status,
      body: res.body,
      ...(finalizer ? { finalizer } : {}),
    };
    requests.push(rec);
    return rec;
  };

  const worker = async (w: number): Promise<void> => {
    for (let n = 0; !stopped; n++) {
      const name = `${prefix}-${w}-${n}`;
      const obj: ObjectRecord = { name, patched: [], deleted: false };
      objects.set(name, obj);
      const created = await send('create', name, () => api.post(base, hpa(name, ['example.com/keep'])));
      if (created.status !== 201) {
        await pause(created);
        continue;
      }
      obj.created = { uid: created.body.metadata.uid, resourceVersion: created.body.metadata.resourceVersion };
      for (let p = 0; p < PATCHES_PER_OBJECT && !stopped; p++) {
        const finalizer = `example.com/p${p}`;
        const patched = await send(
          'patch',
          name,
          () =>
            api.patch(
              `${base}/${name}`,
              [{ op: 'add', path: '/metadata/finalizers/-', value: finalizer }],
              'application/json-patch+json',
            ),
          finalizer,
        );
        if (patched.status === 200) obj.patched.push(finalizer);
        else await pause(patched);
      }
      if (stopped) break;
      const cleared = await send('clear', name, () => api.patch(`${base}/${name}`, { metadata: { finalizers: null } }));
      if (cleared.status === 200) obj.cleared = true;
      else {
        if (cleared.status === 504) obj.clearUnknown = true;
        await pause(cleared);
        continue;
      }
      const deleted = await send('delete', name, () => api.delete(`${base}/${name}`));
      if (deleted.status === 200) obj.deleted = true;
      else {
        if (deleted.status === 504) obj.deleteUnknown = true;
        await pause(deleted);
      }
    }
  };

  const running = Array.from({ length: workers }, (_, w) => worker(w));
  return {
    requests,
    objects,
    stop: async () => {
      stopped = true;
      await Promise.all(running);
    },
  };
}

export function collectionPath(namespace: string): string {
  return `/apis/autoscaling/v1/namespaces/${namespace}/horizontalpodautoscalers`;
}

/** Where the object is in etcd. */
export function etcdKey(namespace: string, name: string): string {
  return `/registry/autoscaling/horizontalpodautoscalers/${namespace}/${name}`;
}

export function hpa(name: string, finalizers?: string[]): object {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, ...(finalizers ? { finalizers } : {}) },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
  };
}

/** After a failed request a worker waits a little, as a client would, instead of spinning. */
function pause(rec: Recorded): Promise<void> {
  return rec.status >= 500 || rec.status === 0 ? new Promise((r) => setTimeout(r, 50)) : Promise.resolve();
}

export function isWriteRefused(rec: Recorded): boolean {
  return rec.status === 0 || rec.status >= 500 || (rec.op === 'create' && rec.status === 409);
}
