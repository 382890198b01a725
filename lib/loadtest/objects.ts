// The kinds the harness writes (public API paths of Kubernetes 1.26) and the bodies of each write verb.
import type { ApiClient } from './client';
import type { KindName } from './profile';

export interface KindInfo {
  kind: KindName;
  apiVersion: string;
  objectKind: string;
  namespaced: boolean;
  /** Short name used in object names. */
  short: string;
}

export const KIND_INFO: Record<KindName, KindInfo> = {
  deployments: {
    kind: 'deployments',
    apiVersion: 'apps/v1',
    objectKind: 'Deployment',
    namespaced: true,
    short: 'deploy',
  },
  horizontalpodautoscalers: {
    kind: 'horizontalpodautoscalers',
    apiVersion: 'autoscaling/v2',
    objectKind: 'HorizontalPodAutoscaler',
    namespaced: true,
    short: 'hpa',
  },
  flowschemas: {
    kind: 'flowschemas',
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
    objectKind: 'FlowSchema',
    namespaced: false,
    short: 'fs',
  },
};

/**
 * FlowSchemas live in flowcontrol.apiserver.k8s.io on Kubernetes and flowcontrol.apiserver.orch.io on orch: the
 * group (and a served version) is read from discovery before the run.
 */
export async function resolveFlowSchemaVersion(client: ApiClient): Promise<void> {
  const reply = await client.request('GET', '/apis', { timeoutMs: 30_000 });
  if (reply.status !== 200) throw new Error(`discovery GET /apis answered ${reply.error ?? reply.status}`);
  const groups =
    (
      JSON.parse(reply.body) as {
        groups?: Array<{
          name: string;
          versions: Array<{ groupVersion: string; version: string }>;
          preferredVersion?: { groupVersion: string };
        }>;
      }
    ).groups ?? [];
  const group =
    groups.find((g) => g.name === 'flowcontrol.apiserver.k8s.io') ??
    groups.find((g) => g.name.startsWith('flowcontrol.apiserver.'));
  if (!group)
    throw new Error('the server serves no flowcontrol.apiserver group (FlowSchemas): leave flowschemas out of --kinds');
  const v1beta3 = group.versions.find((v) => v.version === 'v1beta3');
  KIND_INFO.flowschemas.apiVersion =
    v1beta3?.groupVersion ?? group.preferredVersion?.groupVersion ?? group.versions[0]!.groupVersion;
}

export const RUN_LABEL = 'loadtest.orch.io/run';
export const GROUP_LABEL = 'loadtest.orch.io/group';
export const GROUPS = 4;
const STEP_ANNOTATION = 'loadtest.orch.io/step';
const PADDING_ANNOTATION = 'loadtest.orch.io/padding';

function prefix(info: KindInfo): string {
  return info.apiVersion.includes('/') ? `/apis/${info.apiVersion}` : `/api/${info.apiVersion}`;
}

/** Collection path: a namespace's, or all namespaces' / the cluster's when namespace is undefined. */
export function collectionPath(info: KindInfo, namespace?: string): string {
  return info.namespaced && namespace !== undefined
    ? `${prefix(info)}/namespaces/${namespace}/${info.kind}`
    : `${prefix(info)}/${info.kind}`;
}

export function objectPath(info: KindInfo, namespace: string | undefined, name: string): string {
  return `${collectionPath(info, namespace)}/${name}`;
}

export interface ObjectRef {
  info: KindInfo;
  namespace: string | undefined;
  name: string;
  /** Group label value, for label-selector LISTs. */
  group: number;
}

function spec(ref: ObjectRef, step: number): Record<string, unknown> {
  switch (ref.info.kind) {
    case 'deployments':
      return {
        replicas: (step % 5) + 1,
        selector: { matchLabels: { app: ref.name } },
        template: {
          metadata: { labels: { app: ref.name } },
          spec: {
            containers: [
              {
                name: 'app',
                image: `registry.local/app:${step}`,
                ports: [{ containerPort: 8080 }],
                resources: { requests: { cpu: '100m', memory: '64Mi' } },
              },
            ],
          },
        },
      };
    case 'horizontalpodautoscalers':
      return {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: ref.name },
        minReplicas: 1,
        maxReplicas: 3 + (step % 7),
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 + (step % 40) } },
          },
        ],
      };
    case 'flowschemas':
      return {
        priorityLevelConfiguration: { name: 'global-default' },
        // High precedence numbers and a subject no client uses: the load test's FlowSchemas never classify a request.
        matchingPrecedence: 9000 + (step % 900),
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: `orch-loadtest-nobody-${ref.name}` } }],
            resourceRules: [
              { verbs: ['get'], apiGroups: ['loadtest.orch.io'], resources: ['nothing'], namespaces: ['*'] },
            ],
          },
        ],
      };
  }
}

/** Padding that brings the object's JSON to about `size` bytes. */
function padding(baseLength: number, size: number): string {
  const missing = size - baseLength - PADDING_ANNOTATION.length - 6;
  if (missing <= 0) return '';
  const unit = 'orch-loadtest-padding-';
  return unit.repeat(Math.ceil(missing / unit.length)).slice(0, missing);
}

/** The whole object (create, update, apply); no resourceVersion, so updates are unconditional. */
export function fullObject(ref: ObjectRef, runId: string, step: number, size: number): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    name: ref.name,
    ...(ref.namespace !== undefined && ref.info.namespaced ? { namespace: ref.namespace } : {}),
    labels: { [RUN_LABEL]: runId, [GROUP_LABEL]: `g${ref.group}` },
    annotations: { [STEP_ANNOTATION]: String(step) },
  };
  const obj = { apiVersion: ref.info.apiVersion, kind: ref.info.objectKind, metadata, spec: spec(ref, step) };
  const pad = padding(JSON.stringify(obj).length, size);
  if (pad !== '') (metadata['annotations'] as Record<string, string>)[PADDING_ANNOTATION] = pad;
  return obj;
}

/** JSON merge patch: a new step annotation and a changed scalar in spec. */
export function mergePatch(ref: ObjectRef, step: number): Record<string, unknown> {
  const s = spec(ref, step);
  const changed: Record<string, unknown> =
    ref.info.kind === 'deployments'
      ? { replicas: s['replicas'] }
      : ref.info.kind === 'horizontalpodautoscalers'
        ? { maxReplicas: s['maxReplicas'] }
        : { matchingPrecedence: s['matchingPrecedence'] };
  return { metadata: { annotations: { [STEP_ANNOTATION]: String(step) } }, spec: changed };
}

/** Strategic merge patch: for Deployments a container merged by its name (the merge key); a list replaced otherwise. */
export function strategicPatch(ref: ObjectRef, step: number): Record<string, unknown> {
  const s = spec(ref, step);
  const changed: Record<string, unknown> =
    ref.info.kind === 'deployments'
      ? { template: { spec: { containers: [{ name: 'app', image: `registry.local/app:${step}` }] } } }
      : ref.info.kind === 'horizontalpodautoscalers'
        ? { metrics: s['metrics'] }
        : { rules: s['rules'], matchingPrecedence: s['matchingPrecedence'] };
  return { metadata: { annotations: { [STEP_ANNOTATION]: String(step) } }, spec: changed };
}
