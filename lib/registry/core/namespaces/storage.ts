// How namespaces are served (pkg/registry/core/namespace/storage): /status and /finalize, deletion held by
// spec.finalizers, DELETE answered with the object, no DeleteCollection.
import type { ResourceRegistration } from '../../rest/registration';
import { namespaceDeletionHooks } from './deletion';
import { NAMESPACE_SELECTORS } from './selectors';
import { namespaceFinalizeStrategy, namespaceStatusStrategy, namespaceStrategy } from './strategy';

export const namespaceRegistration = (): ResourceRegistration => ({
  definition: {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    listKind: 'NamespaceList',
    shortNames: ['ns'],
    categories: [],
    strategy: { ...namespaceStrategy, ...namespaceDeletionHooks },
    statusStrategy: { ...namespaceStatusStrategy, ...namespaceDeletionHooks },
  },
  putSubresources: { finalize: { ...namespaceFinalizeStrategy, ...namespaceDeletionHooks } },
  selectors: NAMESPACE_SELECTORS,
  returnDeletedObject: true,
  deleteCollection: false,
});
