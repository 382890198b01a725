// Table rendering (meta/v1 Table) for get/list: the kind's columns, or the default Name / Created At.
import { badRequest } from '../apimachinery/errors';
import type { ApiObject, ListMeta } from '../apimachinery/meta/types';
import type { TableColumnDefinition, TableConvertor } from '../registry/rest/table';
import type { TableRequest } from './negotiation';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: http://kubernetes.io/docs/user-guide/identifiers#names';
const CREATED_AT_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export const defaultTableConvertor: TableConvertor = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0 },
    { name: 'Created At', type: 'date', format: '', description: CREATED_AT_DESCRIPTION, priority: 0 },
  ],
  cells: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? null],
};

export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: "${value}": must be 'Metadata', 'Object', 'None', or empty`);
}

function rowObject(obj: ApiObject, include: IncludeObject, table: TableRequest): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: `${table.group}/${table.version}`, metadata: obj.metadata };
}

export interface TableOptions {
  request: TableRequest;
  includeObject: IncludeObject;
  /** Omit columnDefinitions (later watch events). */
  withoutColumns?: boolean;
}

export function toTable(objects: ApiObject[], convertor: TableConvertor | undefined, listMeta: ListMeta, options: TableOptions, now = new Date()): Record<string, unknown> {
  const tc = convertor ?? defaultTableConvertor;
  const columnDefinitions: TableColumnDefinition[] | null = options.withoutColumns ? null : tc.columns;
  const rows = objects.map((obj) => {
    const row: Record<string, unknown> = { cells: tc.cells(obj, now) };
    const object = rowObject(obj, options.includeObject, options.request);
    if (object !== undefined) row['object'] = object;
    return row;
  });
  return { kind: 'Table', apiVersion: `${options.request.group}/${options.request.version}`, metadata: listMeta, columnDefinitions, rows };
}
