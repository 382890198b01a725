// HorizontalPodAutoscaler printer columns as kube-apiserver 1.26 prints them (printHorizontalPodAutoscaler, formatHPAMetrics).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { CURRENT_METRICS_ANNOTATION, METRICS_ANNOTATION } from '../../../apis/autoscaling/annotations';
import type { JsonObject } from '../../../apimachinery/validation/untrusted-json';
import { isAbsent, numberAt, objectAt, stringAt } from '../../../apimachinery/validation/untrusted-json';
import { formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';
import { ageColumn, nameColumn, stringColumn } from '../../rest/table';

// Descriptions: SwaggerDoc texts of k8s.io/api autoscaling/v2beta1 v0.26 (Name and Age: ../../rest/table).
const REFERENCE_DOC =
  'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.';
const TARGETS_DOC =
  'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond.';
const MIN_PODS_DOC =
  'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.';
const MAX_PODS_DOC =
  'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.';
const REPLICAS_DOC =
  'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.';

/** DefaultCPUUtilization: what a v1 object without any target converts to. */
const DEFAULT_CPU_UTILIZATION = 80;
const MAX_SHOWN_METRICS = 2;

/** A metric target or current value: `value`, `averageValue` (quantities), `averageUtilization`. */
interface Values {
  value?: unknown;
  averageValue?: unknown;
  averageUtilization?: unknown;
}

/** One metric (or metric status) in the v2 shape, reduced to what the printer reads. */
interface Metric {
  type: string;
  values: Values | undefined;
}

const MEMBER = new Map([
  ['Resource', 'resource'],
  ['ContainerResource', 'containerResource'],
  ['Pods', 'pods'],
  ['Object', 'object'],
  ['External', 'external'],
]);

function v2Metrics(list: unknown, valuesKey: 'target' | 'current'): (Metric | undefined)[] {
  if (!Array.isArray(list)) return [];
  return list.map((m: unknown) => {
    const type = stringAt(m, 'type');
    const member = objectAt(m, MEMBER.get(type) ?? '');
    return isPlainObject(m)
      ? { type, values: member === undefined ? undefined : (objectAt(member, valuesKey) ?? {}) }
      : undefined;
  });
}

/** A legacy (autoscaling/v1 annotation) MetricSpec or MetricStatus in the v2 shape, as the conversion builds it. */
function legacyMetric(m: unknown, current: boolean): Metric | undefined {
  if (!isPlainObject(m)) return undefined;
  const type = stringAt(m, 'type');
  const src = objectAt(m, MEMBER.get(type) ?? '');
  if (src === undefined) return { type, values: undefined };
  if (current) {
    switch (type) {
      case 'Resource':
      case 'ContainerResource':
        return {
          type,
          values: { averageUtilization: src.currentAverageUtilization, averageValue: src.currentAverageValue },
        };
      case 'Pods':
        return { type, values: { averageValue: src.currentAverageValue } };
      case 'Object':
        return { type, values: { value: src.currentValue, averageValue: src.averageValue } };
      default:
        return { type, values: { value: src.currentValue, averageValue: src.currentAverageValue } };
    }
  }
  switch (type) {
    case 'Resource':
    case 'ContainerResource':
      return {
        type,
        values: isAbsent(src.targetAverageValue)
          ? { averageUtilization: src.targetAverageUtilization }
          : { averageValue: src.targetAverageValue },
      };
    case 'Pods':
      return { type, values: { averageValue: src.targetAverageValue } };
    case 'Object':
      return {
        type,
        values: isAbsent(src.averageValue) ? { value: src.targetValue } : { averageValue: src.averageValue },
      };
    default:
      return {
        type,
        values: isAbsent(src.targetValue) ? { averageValue: src.targetAverageValue } : { value: src.targetValue },
      };
  }
}

function parseAnnotation(obj: ApiObject, key: string): unknown[] | undefined {
  const raw = obj.metadata.annotations?.[key];
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The metrics and statuses a v1 object stands for: annotation metrics first, then the cpu target. */
function v1Metrics(obj: ApiObject, spec: JsonObject | undefined): [(Metric | undefined)[], (Metric | undefined)[]] {
  const extra = (parseAnnotation(obj, METRICS_ANNOTATION) ?? []).map((m) => legacyMetric(m, false));
  const target = spec?.targetCPUUtilizationPercentage;
  const specs = [...extra];
  if (typeof target === 'number') specs.push({ type: 'Resource', values: { averageUtilization: target } });
  else if (extra.length === 0)
    specs.push({ type: 'Resource', values: { averageUtilization: DEFAULT_CPU_UTILIZATION } });
  const annotated = parseAnnotation(obj, CURRENT_METRICS_ANNOTATION);
  if (annotated !== undefined) return [specs, annotated.map((m) => legacyMetric(m, true))];
  const currentCpu = objectAt(obj, 'status')?.currentCPUUtilizationPercentage;
  return [
    specs,
    typeof currentCpu === 'number' ? [{ type: 'Resource', values: { averageUtilization: currentCpu } }] : [],
  ];
}

/** Quantity.String() of a possibly nil pointer. */
function quantity(q: unknown): string {
  if (typeof q === 'string') return q;
  return typeof q === 'number' ? String(q) : '<nil>';
}

function formatMetric(spec: Metric, status: Metric | undefined): string {
  const target = spec.values ?? {};
  const current = status?.type === spec.type ? status.values : undefined;
  switch (spec.type) {
    case 'External':
    case 'Object':
      if (!isAbsent(target.averageValue)) {
        const now = isAbsent(current?.averageValue) ? '<unknown>' : quantity(current?.averageValue);
        return `${now}/${quantity(target.averageValue)} (avg)`;
      }
      return `${current === undefined ? '<unknown>' : quantity(current.value)}/${quantity(target.value)}`;
    case 'Pods':
      return `${current === undefined ? '<unknown>' : quantity(current.averageValue)}/${quantity(target.averageValue)}`;
    case 'Resource':
    case 'ContainerResource': {
      if (!isAbsent(target.averageValue)) {
        return `${current === undefined ? '<unknown>' : quantity(current.averageValue)}/${quantity(target.averageValue)}`;
      }
      const now = typeof current?.averageUtilization === 'number' ? `${current.averageUtilization}%` : '<unknown>';
      return `${now}/${typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>'}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: `<current>/<target>` per metric, at most two, then ` + <k> more...`. */
export function formatHPAMetrics(
  specs: readonly (Metric | undefined)[],
  statuses: readonly (Metric | undefined)[],
): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => (spec === undefined ? '<unknown type>' : formatMetric(spec, statuses[i])));
  const shown = list.slice(0, MAX_SHOWN_METRICS).join(', ');
  return list.length > MAX_SHOWN_METRICS ? `${shown} + ${list.length - MAX_SHOWN_METRICS} more...` : shown;
}

export const horizontalPodAutoscalerTable: TableConvertor = {
  columns: [
    nameColumn,
    stringColumn('Reference', REFERENCE_DOC),
    stringColumn('Targets', TARGETS_DOC),
    stringColumn('MinPods', MIN_PODS_DOC),
    stringColumn('MaxPods', MAX_PODS_DOC),
    stringColumn('Replicas', REPLICAS_DOC),
    ageColumn,
  ],
  cells(obj: ApiObject, now: Date): unknown[] {
    const spec = objectAt(obj, 'spec');
    const ref = objectAt(spec, 'scaleTargetRef');
    // autoscaling/v2 objects carry `metrics`; autoscaling/v1 ones the cpu target and the round-trip annotations.
    const [specs, statuses] = Array.isArray(spec?.metrics)
      ? [v2Metrics(spec.metrics, 'target'), v2Metrics(objectAt(obj, 'status')?.currentMetrics, 'current')]
      : v1Metrics(obj, spec);
    const minReplicas = spec?.minReplicas;
    return [
      obj.metadata.name ?? '',
      `${stringAt(ref, 'kind')}/${stringAt(ref, 'name')}`,
      formatHPAMetrics(specs, statuses),
      typeof minReplicas === 'number' ? String(minReplicas) : '<unset>',
      numberAt(spec, 'maxReplicas'),
      numberAt(obj.status, 'currentReplicas'),
      formatAge(obj.metadata.creationTimestamp, now),
    ];
  },
};
