// Before the run: the namespaces and the initial objects; after it (against a real server): removing them again.
import type { ApiClient, Reply } from './client';
import { KIND_INFO, RUN_LABEL, collectionPath, fullObject } from './objects';
import type { KindName, Profile } from './profile';
import { namespaceName, type ObjectPool } from './workload';

function fail(what: string, reply: Reply): never {
  throw new Error(`${what} answered ${reply.error ?? reply.status}: ${reply.body.slice(0, 400)}`);
}

async function inParallel<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export function namespacesUsed(profile: Profile, runId: string): string[] {
  return profile.kinds.some((k) => KIND_INFO[k].namespaced)
    ? Array.from({ length: profile.namespaces }, (_, i) => namespaceName(runId, i))
    : [];
}

export async function prepare(client: ApiClient, profile: Profile, runId: string, pool: ObjectPool): Promise<void> {
  for (const ns of namespacesUsed(profile, runId)) {
    const body = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns, labels: { [RUN_LABEL]: runId } },
    });
    const reply = await client.request('POST', '/api/v1/namespaces', { body, timeoutMs: 30_000 });
    if (reply.status !== 201 && reply.status !== 409) fail(`creating namespace ${ns}`, reply);
  }
  const refs = [];
  for (const kind of profile.kinds) {
    const namespaces: Array<string | undefined> = KIND_INFO[kind].namespaced
      ? namespacesUsed(profile, runId)
      : [undefined];
    for (const ns of namespaces)
      for (let i = 0; i < profile.initialObjects; i++) refs.push(pool.newRef(kind, ns, i % 4));
  }
  await inParallel(refs, 8, async (ref) => {
    const reply = await client.request('POST', collectionPath(ref.info, ref.namespace), {
      body: JSON.stringify(fullObject(ref, runId, 0, profile.objectSize)),
      timeoutMs: 30_000,
    });
    if (reply.status !== 201)
      fail(`creating ${ref.info.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`, reply);
    pool.add(ref);
  });
}

/** Deletes the run's objects (by label) and namespaces; problems are returned, not thrown. */
export async function cleanUp(client: ApiClient, profile: Profile, runId: string): Promise<string[]> {
  const problems: string[] = [];
  const selector = `labelSelector=${encodeURIComponent(`${RUN_LABEL}=${runId}`)}`;
  for (const kind of profile.kinds as KindName[]) {
    const info = KIND_INFO[kind];
    const namespaces: Array<string | undefined> = info.namespaced ? namespacesUsed(profile, runId) : [undefined];
    for (const ns of namespaces) {
      const reply = await client.request('DELETE', `${collectionPath(info, ns)}?${selector}`, { timeoutMs: 60_000 });
      if (reply.status !== 200)
        problems.push(`deleting ${kind} in ${ns ?? 'the cluster'}: ${reply.error ?? reply.status}`);
    }
  }
  for (const ns of namespacesUsed(profile, runId)) {
    const reply = await client.request('DELETE', `/api/v1/namespaces/${ns}`, { timeoutMs: 60_000 });
    if (reply.status !== 200 && reply.status !== 202 && reply.status !== 404)
      problems.push(`deleting namespace ${ns}: ${reply.error ?? reply.status}`);
  }
  return problems;
}
