// Field tracking for the writes the server makes itself. Kubernetes makes them through loopback clients that name a
// field manager, so they show up in managedFields as an Update by that manager (in the version the client writes).
import type { ApiObject } from '../../apimachinery/meta/types';
import { resetFields, updateManagedFields, type FieldManagerScope } from '../../apimachinery/managed-fields';
import { schemaFor } from '../../apimachinery/schema/kinds';
import { apiVersionOfDefinition, type ResourceDefinition } from '../rest/resource';

/** The kube-apiserver's own writes (built-in namespaces). */
export const KUBE_APISERVER_MANAGER = 'kube-apiserver';
/** kube-controller-manager's controllers (the namespace controller's status and finalize writes); its user agent's first segment. */
export const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';
/** The APF configuration producer (bootstrap FlowSchemas and priority levels). */
export const APF_CONFIG_PRODUCER_MANAGER = 'api-priority-and-fairness-config-producer-v1';
/** The APF configuration consumer (the Dangling condition of FlowSchemas). */
export const APF_CONFIG_CONSUMER_MANAGER = 'api-priority-and-fairness-config-consumer-v1';

/** The field-tracking scope of writes to a resource (or one of its subresources) in the definition's version. */
export function fieldManagerScopeOf(def: ResourceDefinition, subresource: string): FieldManagerScope {
  const apiVersion = apiVersionOfDefinition(def);
  return { schema: schemaFor(apiVersion, def.kind), apiVersion, kind: def.kind, subresource, ignored: resetFields(def.group, def.resource, subresource) };
}

/** A store write transform recording the write as an Update by `manager`. */
export function trackedAs(manager: string, def: ResourceDefinition, subresource = ''): (obj: ApiObject, live: ApiObject | undefined) => ApiObject {
  const scope = fieldManagerScopeOf(def, subresource);
  return (obj, live) => updateManagedFields(live, obj, manager, scope);
}
