// The autoscaling/v1 Scale's printer columns (pkg/printers/internalversion scaleColumnDefinitions and printScale, 1.26).
import type { ApiObject } from '../../apimachinery/meta/types';
import { numberAt } from '../../apimachinery/validation/untrusted-json';
import { formatAge } from './age';
import type { TableConvertor } from './table';
import { ageColumn, nameColumn } from './table';

// SwaggerDoc texts of k8s.io/api autoscaling/v1 v0.26 ScaleSpec.replicas and ScaleStatus.replicas.
const DESIRED_DOC = 'desired number of instances for the scaled object.';
const AVAILABLE_DOC = 'actual number of observed instances of the scaled object.';

export const scaleTable: TableConvertor = {
  // The Scale's Name column has no `name` format, unlike every other kind's.
  columns: [
    { ...nameColumn, format: '' },
    { name: 'Desired', type: 'integer', format: '', description: DESIRED_DOC, priority: 0 },
    { name: 'Available', type: 'integer', format: '', description: AVAILABLE_DOC, priority: 0 },
    ageColumn,
  ],
  cells(scale: ApiObject, now: Date): unknown[] {
    return [
      scale.metadata.name ?? '',
      numberAt(scale.spec, 'replicas'),
      numberAt(scale.status, 'replicas'),
      formatAge(scale.metadata.creationTimestamp, now),
    ];
  },
};
