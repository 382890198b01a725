// Deployment printer columns as kube-apiserver 1.26 prints them (pkg/printers/internalversion printDeployment, always wide).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { WRONG_TYPE, objectAt, objectsAt } from '../../../apis/core/untrusted-json';
import { labelSelectorAsSelector, readLabelSelector } from '../../../apis/apps/label-selector';
import { FieldPath } from '../../../apimachinery/field/path';
import { ageColumn, formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';

// Descriptions: SwaggerDoc texts of k8s.io/apimachinery ObjectMeta and k8s.io/api extensions/v1beta1 v0.26.
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names';
const READY_DOC = 'Number of the pod with ready state';
const UPDATED_DOC = 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.';
const AVAILABLE_DOC = 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.';
const CONTAINERS_DOC = 'Names of each container in the template.';
const IMAGES_DOC = 'Images referenced by each container in the template.';
const SELECTOR_DOC = 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.';

const INVALID_SELECTOR = '<invalid>';

/** An int32 field as Go decoded it (absent or wrongly typed → 0). */
function int(parent: unknown, key: string): number {
  const value = isPlainObject(parent) ? parent[key] : undefined;
  return typeof value === 'number' ? value : 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The selector as a label-selector string (requirements sorted by key), `<invalid>` when it cannot convert. */
export function selectorText(spec: unknown): string {
  const selector = readLabelSelector([], FieldPath.root('spec', 'selector'), isPlainObject(spec) ? spec.selector : undefined);
  if (selector === WRONG_TYPE) return INVALID_SELECTOR;
  return labelSelectorAsSelector(selector)?.toString() ?? INVALID_SELECTOR;
}

export const deploymentTable: TableConvertor = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
    { name: 'Ready', type: 'string', format: '', description: READY_DOC, priority: 0 },
    { name: 'Up-to-date', type: 'string', format: '', description: UPDATED_DOC, priority: 0 },
    { name: 'Available', type: 'string', format: '', description: AVAILABLE_DOC, priority: 0 },
    ageColumn,
    { name: 'Containers', type: 'string', format: '', description: CONTAINERS_DOC, priority: 1 },
    { name: 'Images', type: 'string', format: '', description: IMAGES_DOC, priority: 1 },
    { name: 'Selector', type: 'string', format: '', description: SELECTOR_DOC, priority: 1 },
  ],
  cells(obj: ApiObject, now: Date): unknown[] {
    const containers = objectsAt(objectAt(objectAt(obj.spec, 'template'), 'spec'), 'containers');
    return [
      text(obj.metadata.name),
      `${int(obj.status, 'readyReplicas')}/${int(obj.spec, 'replicas')}`,
      // Declared as string columns while the cells are integers, as upstream does.
      int(obj.status, 'updatedReplicas'),
      int(obj.status, 'availableReplicas'),
      formatAge(obj.metadata.creationTimestamp, now),
      containers.map((c) => text(c.name)).join(','),
      containers.map((c) => text(c.image)).join(','),
      selectorText(obj.spec),
    ];
  },
};
