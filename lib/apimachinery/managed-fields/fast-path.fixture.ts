// Objects for the fast-path equivalence tests: the Deployment corpus, rich objects of every kind, and seeded random variations.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyDeploymentDefaults } from '../../apis/apps/v1/defaults';
import { applyHorizontalPodAutoscalerDefaults } from '../../apis/autoscaling/v1/defaults';
import { applyNamespaceDefaults } from '../../apis/core/v1/defaults';
import {
  applyFlowSchemaDefaults,
  applyPriorityLevelConfigurationDefaults,
} from '../../apis/flowcontrol/v1beta3/defaults';
import { yamlToJson } from '../json/yaml-to-json';
import type { ApiObject } from '../meta/types';
import { schemaFor } from '../schema/kinds';
import {
  RICH_DEPLOYMENT,
  RICH_FLOW_SCHEMA,
  RICH_HPA,
  RICH_NAMESPACE,
  RICH_PRIORITY_LEVEL,
  RICH_SCALE,
} from '../serializers/protobuf/rich-objects.fixture';
import type { FieldManagerScope } from './field-manager';
import type { FieldSet } from './field-set';
import { RESET_STATUS, resetFieldsOf } from './reset-fields';

const DEPLOYMENTS_DIR = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'deployments');

const scopeOf = (
  apiVersion: string,
  kind: string,
  subresource = '',
  ignored: FieldSet = RESET_STATUS,
): FieldManagerScope => ({
  schema: schemaFor(apiVersion, kind),
  apiVersion,
  kind,
  subresource,
  ignored,
  now: () => '2024-05-01T10:00:00Z',
});

/** Write paths by kind: the main resource and, where there is one, a subresource with other reset fields. */
export const SCOPES: Record<string, FieldManagerScope[]> = {
  // The status scopes reset what deploymentStatusStrategy and flowSchemaStatusStrategy reset.
  Deployment: [
    scopeOf('apps/v1', 'Deployment'),
    scopeOf('apps/v1', 'Deployment', 'status', resetFieldsOf(['spec'], ['metadata', 'labels'])),
  ],
  HorizontalPodAutoscaler: [scopeOf('autoscaling/v1', 'HorizontalPodAutoscaler')],
  FlowSchema: [
    scopeOf('flowcontrol.apiserver.orch.io/v1beta3', 'FlowSchema', 'status', resetFieldsOf(['spec'], ['metadata'])),
  ],
  PriorityLevelConfiguration: [scopeOf('flowcontrol.apiserver.orch.io/v1beta3', 'PriorityLevelConfiguration')],
  Namespace: [scopeOf('v1', 'Namespace')],
  Scale: [scopeOf('autoscaling/v1', 'Scale', 'scale')],
};

const DEFAULTS: Record<string, (obj: ApiObject) => void> = {
  Deployment: applyDeploymentDefaults,
  HorizontalPodAutoscaler: applyHorizontalPodAutoscalerDefaults,
  FlowSchema: applyFlowSchemaDefaults,
  PriorityLevelConfiguration: applyPriorityLevelConfigurationDefaults,
  Namespace: applyNamespaceDefaults,
};

function withDefaults(obj: ApiObject): ApiObject {
  const copy = structuredClone(obj);
  DEFAULTS[copy.kind ?? '']?.(copy);
  return copy;
}

/** Every manifest of test/fixtures/deployments and a rich object of each kind, each as sent and as defaulted. */
export function corpus(): ApiObject[] {
  const manifests = readdirSync(DEPLOYMENTS_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map(
      (f) =>
        JSON.parse(yamlToJson(readFileSync(join(DEPLOYMENTS_DIR, f), 'utf8'), { strict: false }).json) as ApiObject,
    );
  const rich = [RICH_DEPLOYMENT, RICH_HPA, RICH_FLOW_SCHEMA, RICH_PRIORITY_LEVEL, RICH_NAMESPACE, RICH_SCALE].map(
    (o) => structuredClone(o) as ApiObject,
  );
  return [...manifests, ...rich].flatMap((o) => [o, withDefaults(o)]);
}

/** A small deterministic generator (the same variations on every run). */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed;
  }

  next(): number {
    this.#state = (Math.imul(this.#state, 1103515245) + 12345) & 0x7fffffff;
    return this.#state / 0x7fffffff;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}

/** Keys that trip plain-object code: Object.prototype's names, `__proto__`, index-like and FieldsV1-like keys. */
export const ODD_KEYS = [
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '10',
  '9',
  '',
  'a/b',
  'é✓',
  '<x>&',
  'f:x',
  '.',
  'k:{"a":1}',
];

/** Sets a key as JSON.parse does (an own `__proto__` key included). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A variation: fields dropped, nulled, emptied or retyped; list items repeated, removed, reordered; odd and unknown keys. */
export function vary(value: unknown, random: Random): unknown {
  if (Array.isArray(value)) {
    let out = value.map((item) => (random.next() < 0.8 ? vary(item, random) : item));
    const r = random.next();
    if (r < 0.08 && out.length > 0)
      out.push(structuredClone(out[0])); // a repeated list-map key
    else if (r < 0.12) out = [];
    else if (r < 0.15 && out.length > 0) out.splice(Math.floor(random.next() * out.length), 1);
    else if (r < 0.17) out.push(random.pick([null, 'x', 1, {}, { name: 'n' }]));
    else if (r < 0.19) out.reverse();
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const r = random.next();
      if (r < 0.06) continue;
      setOwn(out, key, r < 0.08 ? null : r < 0.1 ? random.pick([{}, [], '', 0, 'text', true]) : vary(child, random));
    }
    if (random.next() < 0.08) setOwn(out, random.pick(ODD_KEYS), random.pick(['v', 1, null, {}, { a: 1 }, [1]]));
    if (random.next() < 0.05) out[`unknownField${Math.floor(random.next() * 3)}`] = random.pick(['u', { x: 1 }]);
    return out;
  }
  const r = random.next();
  if (r < 0.05) return random.pick(['changed', 42, true, null]);
  if (r < 0.08 && typeof value === 'number') return value + 1;
  return value;
}

/** Labels with odd keys, or labels and annotations emptied or nulled. */
export function withOddMetadata(obj: ApiObject, random: Random): ApiObject {
  const copy = structuredClone(obj);
  const labels: Record<string, unknown> = {};
  for (const key of [random.pick(ODD_KEYS), random.pick(ODD_KEYS), 'app']) setOwn(labels, key, 'x');
  const r = random.next();
  copy.metadata = { ...copy.metadata, labels: (r < 0.6 ? labels : r < 0.8 ? {} : null) as Record<string, string> };
  if (random.next() < 0.3) copy.metadata.annotations = {};
  return copy;
}
