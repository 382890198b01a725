// Table rendering (meta/v1 Table) for get/list: the kind's columns, or the default Name / Created At.
import { badRequest } from '../apimachinery/errors';
import type { ApiObject, ListMeta } from '../apimachinery/meta/types';
import type { TableColumnDefinition, TableConvertor } from '../registry/rest/table';
import { CREATION_TIMESTAMP_DOC, nameColumn } from '../registry/rest/table';
import type { TableRequest } from './negotiation';
import { asPartialObject } from './partial-object-metadata';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export const defaultTableConvertor: TableConvertor = {
  columns: [
    nameColumn,
    { name: 'Created At', type: 'date', format: '', description: CREATION_TIMESTAMP_DOC, priority: 0 },
  ],
  cells: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? null],
};

export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw badRequest(
    `Unable to convert to Table as requested: includeObject: Invalid value: "${value}": must be 'Metadata', 'Object', 'None', or empty`,
  );
}

function rowObject(obj: ApiObject, include: IncludeObject, table: TableRequest): unknown {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return asPartialObject(obj, table);
}

export interface TableOptions {
  request: TableRequest;
  includeObject: IncludeObject;
  /** Omit columnDefinitions (later watch events). */
  withoutColumns?: boolean;
  /**
   * The form the cells are read from: the kind's columns are written against its hub version (Kubernetes prints
   * from the internal object), whatever version the rows' objects are served in.
   */
  cellsFrom?: (obj: ApiObject) => ApiObject;
}

export function toTable(
  objects: ApiObject[],
  convertor: TableConvertor | undefined,
  listMeta: ListMeta,
  options: TableOptions,
  now = new Date(),
): Record<string, unknown> {
  const tc = convertor ?? defaultTableConvertor;
  const columnDefinitions: TableColumnDefinition[] | null = options.withoutColumns ? null : tc.columns;
  const rows = (tc.order ? tc.order(objects) : objects).map((obj) => {
    const row: Record<string, unknown> = { cells: tc.cells(options.cellsFrom ? options.cellsFrom(obj) : obj, now) };
    const object = rowObject(obj, options.includeObject, options.request);
    if (object !== undefined) row['object'] = object;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: `${options.request.group}/${options.request.version}`,
    metadata: listMeta,
    columnDefinitions,
    rows,
  };
}
