// The Deployment `scale` subresource: Deployment ↔ autoscaling/v1 Scale, and the replicas a Scale may change.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import type { FieldError } from '../../../apimachinery/field/errors';
import { invalidValue } from '../../../apimachinery/field/errors';
import { FieldPath } from '../../../apimachinery/field/path';
import { readLabelSelector, labelSelectorAsSelector } from '../../../apis/apps/label-selector';
import { WRONG_TYPE } from '../../../apimachinery/validation/untrusted-json';
import type { ScaleAdapter } from '../../rest/scale';
import { field } from '../../../apimachinery/managed-fields';

/** replicasPathInDeployment of Kubernetes' deployment storage. */
const SPEC_REPLICAS = [field('spec'), field('replicas')];

function selectorText(deployment: ApiObject): string {
  const spec = isPlainObject(deployment['spec']) ? deployment['spec'] : {};
  const selector = readLabelSelector([], FieldPath.root('spec', 'selector'), spec['selector']);
  if (selector === WRONG_TYPE) return '';
  return labelSelectorAsSelector(selector)?.toString() ?? '';
}

function int(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

export const deploymentScale: ScaleAdapter = {
  toScale(deployment) {
    const spec = isPlainObject(deployment['spec']) ? deployment['spec'] : {};
    const status = isPlainObject(deployment['status']) ? deployment['status'] : {};
    const { name, namespace, uid, resourceVersion, creationTimestamp } = deployment.metadata;
    const replicas = int(spec['replicas']);
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
      spec: replicas === 0 ? {} : { replicas },
      status: { replicas: int(status['replicas']), selector: selectorText(deployment) },
    };
  },
  setReplicas(deployment, replicas) {
    const spec = isPlainObject(deployment['spec']) ? deployment['spec'] : {};
    return { ...deployment, spec: { ...spec, replicas } };
  },
  replicasPaths: { 'apps/v1beta1': SPEC_REPLICAS, 'apps/v1beta2': SPEC_REPLICAS, 'apps/v1': SPEC_REPLICAS },
};

/** The replicas a submitted Scale asks for, or the field errors that make it invalid (422 on Scale.autoscaling). */
export function requestedReplicas(scale: ApiObject): { replicas: number; errors: FieldError[] } {
  const spec = isPlainObject(scale['spec']) ? scale['spec'] : {};
  const replicas = spec['replicas'] ?? 0;
  const path = FieldPath.root('spec', 'replicas');
  if (typeof replicas !== 'number' || !Number.isInteger(replicas))
    return { replicas: 0, errors: [invalidValue(path, JSON.stringify(replicas), 'must be a 32-bit integer')] };
  if (replicas < 0) return { replicas, errors: [invalidValue(path, replicas, 'must be greater than or equal to 0')] };
  return { replicas, errors: [] };
}
