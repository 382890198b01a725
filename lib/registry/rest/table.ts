// Printer columns: what `kubectl get` shows for a kind (meta/v1 TableColumnDefinition), and the Name and Age columns kinds share.
import type { ApiObject } from '../../apimachinery/meta/types';

export interface TableColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format: string;
  description: string;
  priority: number;
}

/** A kind's columns plus the function that renders one object into cells (same order). */
export interface TableConvertor {
  columns: TableColumnDefinition[];
  /** `now` is passed in so the Age cell is computed at response time and tests can fix it. */
  cells(obj: ApiObject, now: Date): unknown[];
  /** The order of a list's rows when the kind's printer sorts them (FlowSchemas); storage order otherwise. */
  order?(objects: ApiObject[]): ApiObject[];
}

/** ObjectMeta's `name` doc (SwaggerDoc of k8s.io/apimachinery v0.26), which Kubernetes uses as the Name column's description. */
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names';

/** ObjectMeta's `creationTimestamp` doc, which Kubernetes uses as the Age column's description. */
export const CREATION_TIMESTAMP_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** A plain-text column (`type: string`, no format); priority 1 columns show only with `-o wide`. */
export function stringColumn(name: string, description: string, priority = 0): TableColumnDefinition {
  return { name, type: 'string', format: '', description, priority };
}

/** The first column of every kind's table: metadata.name. */
export const nameColumn: TableColumnDefinition = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: NAME_DOC,
  priority: 0,
};

/** The Age column; its cells come from `formatAge` (./age). */
export const ageColumn: TableColumnDefinition = stringColumn('Age', CREATION_TIMESTAMP_DOC);
