// The autoscaling/v1 round-trip annotations (pkg/apis/autoscaling/annotations.go) under the orch domain rule.

/** v2 metrics v1 cannot express, as a JSON list of v1 MetricSpec (`autoscaling.alpha.kubernetes.io/metrics`). */
export const METRICS_ANNOTATION = 'autoscaling.alpha.orch.io/metrics';
/** All current metrics, as a JSON list of v1 MetricStatus. */
export const CURRENT_METRICS_ANNOTATION = 'autoscaling.alpha.orch.io/current-metrics';
/** Status conditions, as a JSON list of v1 HorizontalPodAutoscalerCondition. */
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.orch.io/conditions';
/** spec.behavior, as JSON of the internal struct (Go field names as keys). */
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.orch.io/behavior';
