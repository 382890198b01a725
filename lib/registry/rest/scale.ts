// A resource's `scale` subresource: how its objects read as autoscaling/v1 Scale and take new replicas.
import type { ReplicasPathMappings } from '../../apimachinery/managed-fields';
import type { ApiObject } from '../../apimachinery/meta/types';

export interface ScaleAdapter {
  toScale(obj: ApiObject): ApiObject;
  /** The object with `replicas` desired (everything else unchanged). */
  setReplicas(obj: ApiObject, replicas: number): ApiObject;
  /** Where each group/version of the object keeps replicas: managedFields move between it and the Scale's spec.replicas. */
  replicasPaths: ReplicasPathMappings;
}
