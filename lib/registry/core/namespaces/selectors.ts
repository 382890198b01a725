// Namespace field selectors (pkg/registry/core/namespace GetAttrs): metadata.name and status.phase, no metadata.namespace.
import type { SelectorSupport } from '../../rest/selector-support';

export const NAMESPACE_SELECTORS: SelectorSupport = {
  fields: ['metadata.name', 'status.phase'],
  fieldSet: (obj) => {
    const status = obj['status'] as { phase?: unknown } | undefined;
    return {
      'metadata.name': obj.metadata.name ?? '',
      'status.phase': typeof status?.phase === 'string' ? status.phase : '',
    };
  },
};
