// The stored object as the strategies see it: autoscaling/v2 (the hub), whatever version etcd still holds it in.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { convertObject } from '../../../apis/conversion';
import { HORIZONTAL_POD_AUTOSCALER_CONVERSIONS } from '../../../apis/autoscaling/conversion-v1-v2';

/** `stored` in the hub version: objects written before v2 became the storage version are still autoscaling/v1 in etcd. */
export function asStoredHub(stored: ApiObject): ApiObject {
  return convertObject(
    HORIZONTAL_POD_AUTOSCALER_CONVERSIONS,
    stored,
    'autoscaling',
    'HorizontalPodAutoscaler',
    HORIZONTAL_POD_AUTOSCALER_CONVERSIONS.hub,
  );
}

function metricsOf(obj: ApiObject): unknown[] {
  return isPlainObject(obj.spec) && Array.isArray(obj.spec.metrics) ? obj.spec.metrics : [];
}

/** hasContainerMetricSources: some metric carries a containerResource member. */
export function hasContainerMetricSources(obj: ApiObject): boolean {
  return metricsOf(obj).some((m) => isPlainObject(m) && isPlainObject(m.containerResource));
}

/** dropContainerMetricSources (gate HPAContainerMetrics off): the member goes, the metric and its type stay. */
export function dropContainerMetricSources(obj: ApiObject): void {
  for (const m of metricsOf(obj)) if (isPlainObject(m)) delete m.containerResource;
}
