// HorizontalPodAutoscaler autoscaling/v1 ↔ autoscaling/v2 (pkg/apis/autoscaling/v1/conversion.go, 1.26): v2-only data rides in annotations.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { KindConversions } from '../conversion';
import {
  BEHAVIOR_ANNOTATION,
  CONDITIONS_ANNOTATION,
  CURRENT_METRICS_ANNOTATION,
  METRICS_ANNOTATION,
} from './annotations';
import { legacyMetricSpec, legacyMetricStatus, v2MetricSpec, v2MetricStatus } from './legacy-metrics';
import { behaviorAnnotation, behaviorFromAnnotation } from './behavior-annotation';

type Json = Record<string, unknown>;

const ROUND_TRIP_ANNOTATIONS = [
  METRICS_ANNOTATION,
  CURRENT_METRICS_ANNOTATION,
  CONDITIONS_ANNOTATION,
  BEHAVIOR_ANNOTATION,
];
/** DefaultCPUUtilization: the target of a v1 object that names none. */
export const DEFAULT_CPU_UTILIZATION = 80;

function at(parent: unknown, key: string): Json {
  return isPlainObject(parent) && isPlainObject(parent[key]) ? parent[key] : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function present(entries: Json): Json {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined && v !== null));
}

/** The other annotations, without the round-trip ones (they never survive a conversion). */
function otherAnnotations(obj: ApiObject): Record<string, string> {
  const all = obj.metadata.annotations ?? {};
  return Object.fromEntries(Object.entries(all).filter(([k]) => !ROUND_TRIP_ANNOTATIONS.includes(k)));
}

function withAnnotations(obj: ApiObject, annotations: Record<string, string>): ApiObject['metadata'] {
  const { annotations: _old, ...rest } = obj.metadata;
  return Object.keys(annotations).length > 0 ? { ...rest, annotations } : rest;
}

function isCpuUtilization(m: unknown): boolean {
  const resource = at(m, 'resource');
  return (
    isPlainObject(m) &&
    m.type === 'Resource' &&
    resource.name === 'cpu' &&
    typeof at(resource, 'target').averageUtilization === 'number'
  );
}

function cpuStatusUtilization(statuses: unknown[]): unknown {
  const cpu = statuses.find((m) => isPlainObject(m) && m.type === 'Resource' && at(m, 'resource').name === 'cpu');
  return at(at(cpu, 'resource'), 'current').averageUtilization;
}

/** autoscaling/v2 → autoscaling/v1. */
export function hpaV2ToV1(obj: ApiObject): ApiObject {
  const spec = at(obj, 'spec');
  const status = at(obj, 'status');
  const metrics = list(spec.metrics);
  const cpu = metrics.find(isCpuUtilization);
  const others = metrics.filter((m) => !isCpuUtilization(m)).map(legacyMetricSpec);
  const currentMetrics = list(status.currentMetrics);
  const conditions = list(status.conditions);
  const annotations = otherAnnotations(obj);
  if (others.length > 0) annotations[METRICS_ANNOTATION] = JSON.stringify(others);
  if (currentMetrics.length > 0)
    annotations[CURRENT_METRICS_ANNOTATION] = JSON.stringify(currentMetrics.map(legacyMetricStatus));
  if (isPlainObject(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = behaviorAnnotation(spec.behavior);
  if (conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions);
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: withAnnotations(obj, annotations),
    spec: present({
      scaleTargetRef: spec.scaleTargetRef ?? { kind: '', name: '' },
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas ?? 0,
      targetCPUUtilizationPercentage:
        cpu === undefined ? undefined : at(at(cpu, 'resource'), 'target').averageUtilization,
    }),
    status: present({
      observedGeneration: status.observedGeneration,
      lastScaleTime: status.lastScaleTime,
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: cpuStatusUtilization(currentMetrics),
    }),
  };
}

function annotationList(obj: ApiObject, key: string): unknown[] | undefined {
  const text = obj.metadata.annotations?.[key];
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function cpuMetric(utilization: unknown): Json {
  return {
    type: 'Resource',
    resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } },
  };
}

/** autoscaling/v1 → autoscaling/v2, with the v2 default metric (what a read in v2 shows). */
export function hpaV1ToV2(obj: ApiObject): ApiObject {
  return v1ToV2(obj, true);
}

/** autoscaling/v1 → autoscaling/v2 as the scheme converts, without defaulting (no metric when v1 has no target). */
export function hpaV1ToV2Undefaulted(obj: ApiObject): ApiObject {
  return v1ToV2(obj, false);
}

function v1ToV2(obj: ApiObject, defaulted: boolean): ApiObject {
  const spec = at(obj, 'spec');
  const status = at(obj, 'status');
  const metrics = (annotationList(obj, METRICS_ANNOTATION) ?? []).map(v2MetricSpec);
  if (typeof spec.targetCPUUtilizationPercentage === 'number')
    metrics.push(cpuMetric(spec.targetCPUUtilizationPercentage));
  if (metrics.length === 0 && defaulted) metrics.push(cpuMetric(DEFAULT_CPU_UTILIZATION));
  const behaviorText = obj.metadata.annotations?.[BEHAVIOR_ANNOTATION];
  const behavior = behaviorText === undefined ? undefined : behaviorFromAnnotation(behaviorText);
  const annotated = annotationList(obj, CURRENT_METRICS_ANNOTATION);
  const currentCpu = status.currentCPUUtilizationPercentage;
  const currentMetrics =
    annotated !== undefined
      ? annotated.map(v2MetricStatus)
      : typeof currentCpu === 'number'
        ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: currentCpu } } }]
        : [];
  const conditions = annotationList(obj, CONDITIONS_ANNOTATION);
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: withAnnotations(obj, otherAnnotations(obj)),
    spec: present({
      scaleTargetRef: spec.scaleTargetRef ?? { kind: '', name: '' },
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas ?? 0,
      metrics: metrics.length > 0 ? metrics : undefined,
      behavior,
    }),
    status: {
      ...present({ observedGeneration: status.observedGeneration, lastScaleTime: status.lastScaleTime }),
      ...(typeof status.currentReplicas === 'number' && status.currentReplicas !== 0
        ? { currentReplicas: status.currentReplicas }
        : {}),
      desiredReplicas: status.desiredReplicas ?? 0,
      // Not omitempty in v2: an empty list is written as null.
      currentMetrics: currentMetrics.length > 0 ? currentMetrics : null,
      ...(conditions !== undefined && conditions.length > 0 ? { conditions } : {}),
    },
  };
}

/** HorizontalPodAutoscaler, stored as autoscaling/v2 (Kubernetes 1.26's storage version); v1 data already in etcd converts on read. */
export const HORIZONTAL_POD_AUTOSCALER_CONVERSIONS: KindConversions = {
  hub: 'v2',
  versions: { v1: { toHub: hpaV1ToV2, fromHub: hpaV2ToV1, toHubUndefaulted: hpaV1ToV2Undefaulted } },
};
