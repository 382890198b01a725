// FlowSchemas and priority levels for API Priority and Fairness tests, and reading their metrics.
// A FlowSchema matches anonymous requests unless it names users (tokens from --token-auth-file): tests tell flows
// apart by user (ByUser) where the issue speaks of users, by resource, verb and namespace elsewhere.
import { FLOWCONTROL } from './fixtures';
import { eventually, type ApiClient } from './test-server';

export interface LevelOptions {
  shares: number;
  /** Absent: limitResponse Reject. */
  queuing?: { queues: number; handSize: number; queueLengthLimit: number };
  lendablePercent?: number;
  borrowingLimitPercent?: number;
}

export async function createPriorityLevel(api: ApiClient, name: string, options: LevelOptions): Promise<string> {
  const res = await api.post(`${FLOWCONTROL}/prioritylevelconfigurations`, {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: options.shares,
        lendablePercent: options.lendablePercent ?? 0,
        borrowingLimitPercent: options.borrowingLimitPercent ?? 0,
        limitResponse: options.queuing ? { type: 'Queue', queuing: options.queuing } : { type: 'Reject' },
      },
    },
  });
  if (res.status !== 201) throw new Error(`creating level ${name}: ${res.status} ${res.text}`);
  return res.body.metadata.uid;
}

export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}

export interface FlowSchemaOptions {
  distinguisher?: 'ByNamespace' | 'ByUser';
  /** The users it matches; absent: every anonymous request (group system:unauthenticated). */
  users?: string[];
}

/** A FlowSchema for the requests of `options.users` (or anonymous ones) matching `rules`, at precedence 100 (before the suggested schemas). */
export async function createFlowSchema(
  api: ApiClient,
  name: string,
  level: string,
  rules: ResourceRule[],
  options: FlowSchemaOptions = {},
): Promise<string> {
  const { distinguisher, users } = options;
  const subjects = users
    ? users.map((user) => ({ kind: 'User', user: { name: user } }))
    : [{ kind: 'Group', group: { name: 'system:unauthenticated' } }];
  const res = await api.post(`${FLOWCONTROL}/flowschemas`, {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence: 100,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [{ subjects, resourceRules: rules }],
    },
  });
  if (res.status !== 201) throw new Error(`creating FlowSchema ${name}: ${res.status} ${res.text}`);
  return res.body.metadata.uid;
}

/** Waits until `path` is classified into the FlowSchema with `uid` (the configuration reached the dispatcher). */
export async function awaitClassification(api: ApiClient, path: string, uid: string, token?: string): Promise<void> {
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  await eventually(
    async () => (await api.get(path, headers)).headers.get('x-orch-pf-flowschema-uid') === uid,
    5000,
    `${path} to be classified into ${uid}`,
  );
}

/** Sum of the samples of `name` whose labels include all of `labels` (0 when none). */
export async function metricSum(api: ApiClient, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = (await api.get('/metrics')).text;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** Status counts of settled responses. */
export function countStatuses(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

export interface SettledResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** `count` GETs of `url` sent at once; a network failure reads as status 0. */
export function burst(url: string, count: number, onResponse?: (status: number) => void): Promise<SettledResponse[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      fetch(url)
        .then(
          async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }),
          () => ({ status: 0, headers: new Headers(), text: '' }),
        )
        .then((settled) => {
          onResponse?.(settled.status);
          return settled;
        }),
    ),
  );
}

/** `count` clients each sending GETs of `url` (as the user of `token`, if given) back to back until `ms` elapsed; statuses and latencies (ms). */
export async function streams(
  url: string,
  count: number,
  ms: number,
  token?: string,
): Promise<{ statuses: number[]; latencies: number[] }> {
  const init: RequestInit = token ? { headers: { Authorization: `Bearer ${token}` } } : {};
  const statuses: number[] = [];
  const latencies: number[] = [];
  const deadline = Date.now() + ms;
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        const status = await fetch(url, init).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status;
          },
          () => 0,
        );
        statuses.push(status);
        latencies.push(performance.now() - started);
        // A rejected client backs off a little, as client-go does on 429 (shorter than Retry-After to keep the test short).
        if (status === 429) await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  return { statuses, latencies };
}
