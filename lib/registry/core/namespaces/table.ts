// Namespace printer columns as kube-apiserver 1.26 prints them (pkg/printers/internalversion printNamespace).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { stringAt } from '../../../apimachinery/validation/untrusted-json';
import { formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';
import { ageColumn, nameColumn, stringColumn } from '../../rest/table';

const STATUS_DOC = 'The status of the namespace';

export const namespaceTable: TableConvertor = {
  columns: [nameColumn, stringColumn('Status', STATUS_DOC), ageColumn],
  cells(obj: ApiObject, now: Date): unknown[] {
    return [obj.metadata.name ?? '', stringAt(obj.status, 'phase'), formatAge(obj.metadata.creationTimestamp, now)];
  },
};
