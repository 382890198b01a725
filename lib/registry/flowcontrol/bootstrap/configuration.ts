// The APF bootstrap objects of Kubernetes 1.26 (apiserver pkg/apis/flowcontrol/bootstrap/default.go), in v1beta3 form with orch names.
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { JsonObject } from '../../../apimachinery/validation/untrusted-json';
import {
  MANDATORY_FLOW_SCHEMA_SPECS,
  MANDATORY_PRIORITY_LEVEL_SPECS,
} from '../../../apis/flowcontrol/validation-mandatory';
import { FLOWCONTROL_GROUP } from '../../../apis/flowcontrol/register';

/** `apf.kubernetes.io/autoupdate-spec` upstream. */
export const AUTO_UPDATE_ANNOTATION = 'apf.orch.io/autoupdate-spec';
export const FLOWCONTROL_API_VERSION = `${FLOWCONTROL_GROUP}/v1beta3`;
/** `coordination.k8s.io` upstream: the group of leases. */
const COORDINATION_GROUP = 'coordination.orch.io';
const CORE_GROUP = '';
const KUBE_SYSTEM = 'kube-system';
const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
const KUBE_SCHEDULER = 'system:kube-scheduler';
const NODES_GROUP = 'system:nodes';
const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
const ALL_AUTHENTICATED = 'system:authenticated';

export interface BootstrapObject {
  readonly name: string;
  /** The spec after v1beta3 defaulting, so it compares equal to what the store holds. */
  readonly spec: Readonly<JsonObject>;
}

// Field order follows the Go structs, so the stored JSON reads like Kubernetes' own.
const groups = (...names: string[]): JsonObject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): JsonObject[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemServiceAccounts = (...names: string[]): JsonObject[] =>
  names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: KUBE_SYSTEM, name } }));

/** `clusterScope` is omitempty in Go, so false is left out as Kubernetes would serialize it. */
function resourceRule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  namespaces: string[],
  clusterScope: boolean,
): JsonObject {
  return clusterScope
    ? { verbs, apiGroups, resources, clusterScope, namespaces }
    : { verbs, apiGroups, resources, namespaces };
}

/** One rule matching every request of the subjects (upstream's resource-all plus non-resource-all rules). */
function everything(subjects: JsonObject[]): JsonObject {
  return {
    subjects,
    resourceRules: [resourceRule(['*'], ['*'], ['*'], ['*'], true)],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  };
}

function flowSchema(
  name: string,
  priorityLevel: string,
  matchingPrecedence: number,
  distinguisher: 'ByUser' | 'ByNamespace' | undefined,
  ...rules: JsonObject[]
): BootstrapObject {
  const spec: JsonObject = { priorityLevelConfiguration: { name: priorityLevel }, matchingPrecedence };
  if (distinguisher !== undefined) spec.distinguisherMethod = { type: distinguisher };
  spec.rules = rules;
  return { name, spec };
}

function limitedQueuing(
  name: string,
  nominalConcurrencyShares: number,
  lendablePercent: number,
  queues: number,
  handSize: number,
  queueLengthLimit: number,
): BootstrapObject {
  return {
    name,
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares,
        limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit } },
        lendablePercent,
      },
    },
  };
}

function mandatory(specs: Readonly<Record<string, JsonObject>>, name: string): BootstrapObject {
  const spec = specs[name];
  if (spec === undefined) throw new Error(`no mandatory flowcontrol spec named ${name}`);
  return { name, spec };
}

// The mandatory specs live with the validation that freezes them; they are reused, not repeated.
export const MANDATORY_PRIORITY_LEVELS: readonly BootstrapObject[] = [
  mandatory(MANDATORY_PRIORITY_LEVEL_SPECS, 'catch-all'),
  mandatory(MANDATORY_PRIORITY_LEVEL_SPECS, 'exempt'),
];
export const MANDATORY_FLOW_SCHEMAS: readonly BootstrapObject[] = [
  mandatory(MANDATORY_FLOW_SCHEMA_SPECS, 'exempt'),
  mandatory(MANDATORY_FLOW_SCHEMA_SPECS, 'catch-all'),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly BootstrapObject[] = [
  limitedQueuing('system', 30, 33, 64, 6, 50),
  limitedQueuing('node-high', 40, 25, 64, 6, 50),
  limitedQueuing('leader-election', 10, 0, 16, 4, 50),
  limitedQueuing('workload-high', 40, 50, 128, 6, 50),
  limitedQueuing('workload-low', 100, 90, 128, 6, 50),
  limitedQueuing('global-default', 20, 50, 128, 6, 50),
];

const getCreateUpdate = ['get', 'create', 'update'];

export const SUGGESTED_FLOW_SCHEMAS: readonly BootstrapObject[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', everything(groups(NODES_GROUP))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: groups(NODES_GROUP),
    resourceRules: [
      resourceRule(['*'], [CORE_GROUP], ['nodes', 'nodes/status'], ['*'], true),
      resourceRule(['*'], [COORDINATION_GROUP], ['leases'], ['*'], false),
    ],
  }),
  flowSchema('probes', 'exempt', 2, undefined, {
    subjects: groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [...users(KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER), ...kubeSystemServiceAccounts('*')],
    resourceRules: [resourceRule(getCreateUpdate, [COORDINATION_GROUP], ['leases'], ['*'], false)],
  }),
  flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
    subjects: kubeSystemServiceAccounts('*'),
    resourceRules: [
      resourceRule(getCreateUpdate, [CORE_GROUP], ['endpoints', 'configmaps'], ['*'], false),
      resourceRule(getCreateUpdate, [COORDINATION_GROUP], ['leases'], ['*'], false),
    ],
  }),
  flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [
      ...users(KUBE_CONTROLLER_MANAGER),
      ...kubeSystemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller'),
    ],
    resourceRules: [resourceRule(getCreateUpdate, [CORE_GROUP], ['endpoints'], ['*'], false)],
  }),
  flowSchema(
    'kube-controller-manager',
    'workload-high',
    800,
    'ByNamespace',
    everything(users(KUBE_CONTROLLER_MANAGER)),
  ),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(KUBE_SCHEDULER))),
  flowSchema(
    'kube-system-service-accounts',
    'workload-high',
    900,
    'ByNamespace',
    everything(kubeSystemServiceAccounts('*')),
  ),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups(ALL_SERVICE_ACCOUNTS_GROUP))),
  flowSchema(
    'global-default',
    'global-default',
    9900,
    'ByUser',
    everything(groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED)),
  ),
];

/** Every bootstrap name of a kind: what the maintainer keeps; annotated objects outside it are obsolete. */
export const BOOTSTRAP_FLOW_SCHEMA_NAMES: ReadonlySet<string> = new Set(
  [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map((b) => b.name),
);
export const BOOTSTRAP_PRIORITY_LEVEL_NAMES: ReadonlySet<string> = new Set(
  [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS].map((b) => b.name),
);

function toObject(kind: string, b: BootstrapObject): ApiObject {
  // A fresh copy each time: the mandatory specs are frozen and stores mutate what they are given.
  return {
    apiVersion: FLOWCONTROL_API_VERSION,
    kind,
    metadata: { name: b.name, annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' } },
    spec: structuredClone(b.spec),
  };
}

export const flowSchemaObject = (b: BootstrapObject): ApiObject => toObject('FlowSchema', b);
export const priorityLevelObject = (b: BootstrapObject): ApiObject => toObject('PriorityLevelConfiguration', b);
