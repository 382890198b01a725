// Admission hooks the store calls around writes: NamespaceLifecycle, and the webhook admission chain.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { ResourceDefinition } from '../rest/resource';
import type { RequestContext } from './request-context';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** One write as admission sees it (admission.Attributes); objects are in the storage (hub) version. */
export interface AdmissionAttributes {
  /** The stored resource's definition (its hub version). */
  definition: ResourceDefinition;
  operation: AdmissionOperation;
  namespace: string;
  name: string;
  /** The object to write (absent on DELETE). */
  object?: ApiObject;
  /** The stored object (UPDATE, DELETE). */
  oldObject?: ApiObject;
  dryRun: boolean;
  /** The request's options object (CreateOptions, UpdateOptions, DeleteOptions). */
  options?: Record<string, unknown>;
  /** The subresource written (`status`, `finalize`) when the store serves one. */
  subresource?: string;
  /** The API request the write serves; absent for the server's own writes. */
  context?: RequestContext;
}

export interface Admission {
  /** Before a create is validated; may throw a StatusError (404 missing namespace, 403 terminating). */
  admitCreate(definition: ResourceDefinition, namespace: string, obj: ApiObject): Promise<void>;
  /** Before a delete; may throw (protected namespaces). */
  admitDelete(definition: ResourceDefinition, namespace: string, name: string): Promise<void>;
  /** After a write through this replica was persisted (caches of admission state are refreshed). */
  afterWrite?(definition: ResourceDefinition, obj: ApiObject): void;
  /** Mutating admission (before the strategy's validation): the object to go on with. May throw (denial). */
  mutate?(attributes: AdmissionAttributes): Promise<ApiObject | undefined>;
  /** Validating admission (after the strategy's validation, before storage). May throw (denial). */
  validate?(attributes: AdmissionAttributes): Promise<void>;
}

/** Several admissions as one: each hook runs in order. */
export function chainAdmission(first: Admission, ...rest: Admission[]): Admission {
  const all = [first, ...rest];
  return {
    admitCreate: async (def, ns, obj) => {
      for (const a of all) await a.admitCreate(def, ns, obj);
    },
    admitDelete: async (def, ns, name) => {
      for (const a of all) await a.admitDelete(def, ns, name);
    },
    afterWrite: (def, obj) => {
      for (const a of all) a.afterWrite?.(def, obj);
    },
    mutate: async (attributes) => {
      let object = attributes.object;
      for (const a of all)
        if (a.mutate) object = (await a.mutate({ ...attributes, ...(object ? { object } : {}) })) ?? object;
      return object;
    },
    validate: async (attributes) => {
      for (const a of all) await a.validate?.(attributes);
    },
  };
}
