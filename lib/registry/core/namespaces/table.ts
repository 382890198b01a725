// Namespace printer columns as kube-apiserver 1.26 prints them (pkg/printers/internalversion printNamespace).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { stringAt } from '../../../apis/core/untrusted-json';
import { ageColumn, formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';

const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names';
const STATUS_DOC = 'The status of the namespace';

export const namespaceTable: TableConvertor = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DOC, priority: 0 },
    { name: 'Status', type: 'string', format: '', description: STATUS_DOC, priority: 0 },
    ageColumn,
  ],
  cells(obj: ApiObject, now: Date): unknown[] {
    return [obj.metadata.name ?? '', stringAt(obj.status, 'phase'), formatAge(obj.metadata.creationTimestamp, now)];
  },
};
