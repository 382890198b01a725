// Printer columns: what `kubectl get` shows for a kind (meta/v1 TableColumnDefinition).
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
}
