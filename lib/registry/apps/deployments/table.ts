// Deployment printer columns as kube-apiserver 1.26 prints them (pkg/printers/internalversion printDeployment, always wide).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { WRONG_TYPE, numberAt, objectAt, objectsAt } from '../../../apimachinery/validation/untrusted-json';
import { labelSelectorAsSelector, readLabelSelector } from '../../../apis/apps/label-selector';
import { FieldPath } from '../../../apimachinery/field/path';
import { formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';
import { ageColumn, nameColumn, stringColumn } from '../../rest/table';

// Descriptions: SwaggerDoc texts of k8s.io/api extensions/v1beta1 v0.26 (Name and Age: ../../rest/table).
const READY_DOC = 'Number of the pod with ready state';
const UPDATED_DOC =
  'Total number of non-terminated pods targeted by this deployment that have the desired template spec.';
const AVAILABLE_DOC =
  'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.';
const CONTAINERS_DOC = 'Names of each container in the template.';
const IMAGES_DOC = 'Images referenced by each container in the template.';
const SELECTOR_DOC =
  'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.';

const INVALID_SELECTOR = '<invalid>';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The selector as a label-selector string (requirements sorted by key), `<invalid>` when it cannot convert. */
export function selectorText(spec: unknown): string {
  const selector = readLabelSelector(
    [],
    FieldPath.root('spec', 'selector'),
    isPlainObject(spec) ? spec.selector : undefined,
  );
  if (selector === WRONG_TYPE) return INVALID_SELECTOR;
  return labelSelectorAsSelector(selector)?.toString() ?? INVALID_SELECTOR;
}

export const deploymentTable: TableConvertor = {
  columns: [
    nameColumn,
    stringColumn('Ready', READY_DOC),
    stringColumn('Up-to-date', UPDATED_DOC),
    stringColumn('Available', AVAILABLE_DOC),
    ageColumn,
    stringColumn('Containers', CONTAINERS_DOC, 1),
    stringColumn('Images', IMAGES_DOC, 1),
    stringColumn('Selector', SELECTOR_DOC, 1),
  ],
  cells(obj: ApiObject, now: Date): unknown[] {
    const containers = objectsAt(objectAt(objectAt(obj.spec, 'template'), 'spec'), 'containers');
    return [
      text(obj.metadata.name),
      `${numberAt(obj.status, 'readyReplicas')}/${numberAt(obj.spec, 'replicas')}`,
      // Declared as string columns while the cells are integers, as upstream does.
      numberAt(obj.status, 'updatedReplicas'),
      numberAt(obj.status, 'availableReplicas'),
      formatAge(obj.metadata.creationTimestamp, now),
      containers.map((c) => text(c.name)).join(','),
      containers.map((c) => text(c.image)).join(','),
      selectorText(obj.spec),
    ];
  },
};
