// Admission hooks the store calls before writes (NamespaceLifecycle is the one served today).
import type { ApiObject } from '../../apimachinery/meta/types';
import type { ResourceDefinition } from '../rest/resource';

export interface Admission {
  /** Before a create is validated; may throw a StatusError (404 missing namespace, 403 terminating). */
  admitCreate(definition: ResourceDefinition, namespace: string, obj: ApiObject): Promise<void>;
  /** Before a delete; may throw (protected namespaces). */
  admitDelete(definition: ResourceDefinition, namespace: string, name: string): Promise<void>;
  /** After a write through this replica was persisted (caches of admission state are refreshed). */
  afterWrite?(definition: ResourceDefinition, obj: ApiObject): void;
}
