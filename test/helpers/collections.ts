// The three collection shapes a list addresses (namespaced, all-namespaces, cluster-scoped) and paging helpers for list tests.
import { aDeployment } from './fixtures';
import { createNamespace, uniqueName, type ApiClient, type ApiResponse } from './test-server';

export type Labels = Record<string, string>;

/** One collection path plus how to write the objects it lists, all tagged with the labels a test gives. */
export interface Collection {
  /** Collection path, e.g. `/apis/apps/v1/namespaces/<ns>/deployments`. */
  path: string;
  /** The etcd key below the collection prefix: what continue tokens carry and lists are ordered by. */
  keyOf(item: ApiItem): string;
  /** Creates `name`; resolves with the object's resourceVersion. */
  create(name: string, labels: Labels): Promise<string>;
  /** Merges `labels` into the object's labels; resolves with the new resourceVersion. */
  relabel(name: string, labels: Labels): Promise<string>;
  remove(name: string): Promise<void>;
  /** The path of one object (GET). */
  objectPath(name: string): string;
}

export interface ApiItem {
  metadata: { name: string; namespace?: string; resourceVersion: string; labels?: Labels };
}

export type CollectionShape = 'namespaced' | 'all-namespaces' | 'cluster-scoped';
export const COLLECTION_SHAPES: readonly CollectionShape[] = ['namespaced', 'all-namespaces', 'cluster-scoped'];

async function expectStatus(res: Promise<ApiResponse>, code: number, what: string): Promise<ApiResponse> {
  const done = await res;
  // A delete that waits for finalizers (namespaces) answers 202 instead of 200.
  if (done.status !== code && !(code === 200 && done.status === 202))
    throw new Error(`${what}: ${done.status} ${done.text}`);
  return done;
}

/** Deployments in a fresh namespace, on its namespaced path or the all-namespaces path; namespaces named with a fresh prefix. */
export async function makeCollection(api: ApiClient, shape: CollectionShape): Promise<Collection> {
  if (shape === 'cluster-scoped') {
    const prefix = uniqueName('cl');
    const objectPath = (name: string): string => `/api/v1/namespaces/${prefix}-${name}`;
    return {
      path: '/api/v1/namespaces',
      keyOf: (item) => item.metadata.name,
      objectPath,
      create: async (name, labels) =>
        (
          await expectStatus(
            api.post('/api/v1/namespaces', {
              apiVersion: 'v1',
              kind: 'Namespace',
              metadata: { name: `${prefix}-${name}`, labels },
            }),
            201,
            name,
          )
        ).body.metadata.resourceVersion,
      relabel: async (name, labels) =>
        (await expectStatus(api.patch(objectPath(name), { metadata: { labels } }), 200, name)).body.metadata
          .resourceVersion,
      remove: async (name) => void (await expectStatus(api.delete(objectPath(name)), 200, name)),
    };
  }
  const ns = uniqueName('lst');
  await createNamespace(api, ns);
  const namespaced = `/apis/apps/v1/namespaces/${ns}/deployments`;
  const objectPath = (name: string): string => `${namespaced}/${name}`;
  return {
    path: shape === 'namespaced' ? namespaced : '/apis/apps/v1/deployments',
    keyOf: (item) =>
      shape === 'namespaced' ? item.metadata.name : `${item.metadata.namespace ?? ''}/${item.metadata.name}`,
    objectPath,
    create: async (name, labels) => {
      const obj = aDeployment(name);
      obj['metadata'].labels = { ...obj['metadata'].labels, ...labels };
      return (await expectStatus(api.post(namespaced, obj), 201, name)).body.metadata.resourceVersion;
    },
    relabel: async (name, labels) =>
      (await expectStatus(api.patch(objectPath(name), { metadata: { labels } }), 200, name)).body.metadata
        .resourceVersion,
    remove: async (name) => void (await expectStatus(api.delete(objectPath(name)), 200, name)),
  };
}

/** A list response's pages, followed like client-go's pager: later pages send only `limit`, selectors and `continue`. */
export interface Paged {
  pages: ApiResponse[];
  items: ApiItem[];
}

export async function readAllPages(
  api: ApiClient,
  path: string,
  firstQuery: string,
  nextQuery: string,
): Promise<Paged> {
  const pages: ApiResponse[] = [];
  let res = await api.get(`${path}?${firstQuery}`);
  for (;;) {
    if (res.status !== 200) throw new Error(`page ${pages.length + 1} of ${path}: ${res.status} ${res.text}`);
    pages.push(res);
    const token: string | undefined = res.body.metadata.continue;
    if (!token) break;
    res = await api.get(`${path}?${nextQuery}&continue=${encodeURIComponent(token)}`);
  }
  return { pages, items: pages.flatMap((p) => p.body.items as ApiItem[]) };
}

/** The collection exactly at `resourceVersion`, in one response (read from etcd at that revision). */
export async function exactList(api: ApiClient, path: string, resourceVersion: string): Promise<ApiItem[]> {
  const res = await expectStatus(
    api.get(`${path}?resourceVersion=${resourceVersion}&resourceVersionMatch=Exact`),
    200,
    `Exact list at ${resourceVersion}`,
  );
  expect(res.body.metadata.resourceVersion).toBe(resourceVersion);
  return res.body.items;
}

/** What identifies an item's state: its key and resourceVersion. */
export function versionsOf(items: ApiItem[], keyOf: (item: ApiItem) => string): string[] {
  return items.map((item) => `${keyOf(item)}@${item.metadata.resourceVersion}`);
}

/** The JSON inside a continue token (raw base64url). */
export function decodeContinueToken(token: string): unknown {
  return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
}

/** A token in Kubernetes' format, possibly tampered with. */
export function encodeContinueToken(fields: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(fields)).toString('base64url');
}
