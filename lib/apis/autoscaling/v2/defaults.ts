// autoscaling/v2 HorizontalPodAutoscaler defaults (pkg/apis/autoscaling/v2/defaults.go, 1.26).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { ensureObject, isAbsent } from '../../../apimachinery/validation/untrusted-json';
import { DEFAULT_MIN_REPLICAS } from '../v1/defaults';
import { DEFAULT_CPU_UTILIZATION } from '../conversion-v1-v2';

const SCALE_UP = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** Fills only the absent members of one direction's rules (a supplied policy list is kept whole). */
function fillRules(
  behavior: Record<string, unknown>,
  key: 'scaleUp' | 'scaleDown',
  defaults: Record<string, unknown>,
): void {
  const rules = isPlainObject(behavior[key]) ? behavior[key] : {};
  for (const [k, v] of Object.entries(defaults)) if (isAbsent(rules[k])) rules[k] = structuredClone(v);
  behavior[key] = rules;
}

/** minReplicas 1, a cpu Utilization 80 metric when none, and the scale-up/down rules of a present behavior. */
export function applyHorizontalPodAutoscalerV2Defaults(obj: ApiObject): void {
  const spec = ensureObject(obj, 'spec');
  if (spec === undefined) return;
  if (isAbsent(spec.minReplicas)) spec.minReplicas = DEFAULT_MIN_REPLICAS;
  if (isAbsent(spec.metrics) || (Array.isArray(spec.metrics) && spec.metrics.length === 0)) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } },
      },
    ];
  }
  if (isPlainObject(spec.behavior)) {
    fillRules(spec.behavior, 'scaleUp', SCALE_UP);
    fillRules(spec.behavior, 'scaleDown', SCALE_DOWN);
  }
}
