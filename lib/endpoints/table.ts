// Table rendering (meta/v1 Table) for get/list: the kind's columns, or the default Name / Created At.
import { badRequest } from '../apimachinery/errors';
import type { ApiObject, ListMeta } from '../apimachinery/meta/types';
import type { TableColumnDefinition, TableConvertor } from '../registry/rest/table';
import { CREATION_TIMESTAMP_DOC, nameColumn } from '../registry/rest/table';
import type { TableRequest } from './negotiation';
import { asPartialObject } from './partial-object-metadata';
import { mapped, wholeDocument, type ListDocument } from '../apimachinery/serializers/list-document';

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
  return wholeDocument(tableDocument(objects, objects.length, convertor, listMeta, options, now));
}

/** The Table of `count` objects as a ListDocument: each row rendered when it is written. */
export function tableDocument(
  objects: Iterable<ApiObject>,
  count: number,
  convertor: TableConvertor | undefined,
  listMeta: ListMeta,
  options: TableOptions,
  now = new Date(),
): ListDocument {
  const tc = convertor ?? defaultTableConvertor;
  const columnDefinitions: TableColumnDefinition[] | null = options.withoutColumns ? null : tc.columns;
  const row = (obj: ApiObject): Record<string, unknown> => {
    const cells = tc.cells(options.cellsFrom ? options.cellsFrom(obj) : obj, now);
    const object = rowObject(obj, options.includeObject, options.request);
    return object === undefined ? { cells } : { cells, object };
  };
  const ordered = tc.order ? tc.order([...objects]) : objects;
  return {
    envelope: {
      kind: 'Table',
      apiVersion: `${options.request.group}/${options.request.version}`,
      metadata: listMeta,
      columnDefinitions,
      rows: [],
    },
    field: 'rows',
    count,
    elements: mapped(ordered, row),
  };
}
