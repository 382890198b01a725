// autoscaling/v1 HorizontalPodAutoscaler defaults (SetDefaults_HorizontalPodAutoscaler), 1.26.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { ensureObject, isAbsent } from '../../../apimachinery/validation/untrusted-json';

export const DEFAULT_MIN_REPLICAS = 1;

/**
 * minReplicas 1 when absent. No cpu target is defaulted at the v1 level: the 80% default belongs to the
 * conversion into the stored (v2) form.
 */
export function applyHorizontalPodAutoscalerDefaults(obj: ApiObject): void {
  const spec = ensureObject(obj, 'spec');
  if (spec !== undefined && isAbsent(spec.minReplicas)) spec.minReplicas = DEFAULT_MIN_REPLICAS;
}
