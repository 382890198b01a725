// Which fields a resource's field selectors can address, and their values for one object (Kubernetes' per-kind
// field label conversion and GetAttrs). Each resource's registration says it; list/watch parsing reads it.
import type { ApiObject } from '../../apimachinery/meta/types';

/** The fields a field selector can address, for one object. */
export type FieldSet = (obj: ApiObject) => Record<string, string>;

export const metadataFieldSet: FieldSet = (obj) => ({
  'metadata.name': obj.metadata.name ?? '',
  'metadata.namespace': obj.metadata.namespace ?? '',
});

export interface SelectorSupport {
  fields: readonly string[];
  fieldSet: FieldSet;
}

export const DEFAULT_SELECTOR_SUPPORT: SelectorSupport = {
  fields: ['metadata.name', 'metadata.namespace'],
  fieldSet: metadataFieldSet,
};
