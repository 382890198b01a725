// Field tracking for the writes the server makes itself. Kubernetes makes them through loopback clients that name a
// field manager, so they show up in managedFields as an Update (or Apply) by that manager in the version the client writes.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import {
  applyToObject,
  RESET_SPEC,
  updateManagedFields,
  type FieldManagerScope,
  type FieldSet,
  type VersionView,
} from '../../apimachinery/managed-fields';
import { convertObject, type KindConversions } from '../../apis/conversion';
import { conversionsOf } from '../../apis/conversions';
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
  const scope: FieldManagerScope = {
    schema: schemaFor(apiVersion, def.kind),
    apiVersion,
    kind: def.kind,
    subresource,
    ignored: resetFieldsOf(def, subresource),
  };
  const conversions = conversionsOf(def.group, def.kind);
  if (conversions !== undefined) scope.atVersion = (other) => versionView(conversions, def, other);
  return scope;
}

/** What writes to `subresource` reset: the status strategy's fields for /status, the main strategy's otherwise (/finalize's strategy keeps them). */
function resetFieldsOf(def: ResourceDefinition, subresource: string): FieldSet {
  if (subresource === 'status') return def.statusStrategy?.resetFields ?? RESET_SPEC;
  return def.strategy.resetFields;
}

/** `def`'s kind in `apiVersion` (one of its group's versions the conversions know), else undefined; converted without defaulting. */
function versionView(
  conversions: KindConversions,
  def: ResourceDefinition,
  apiVersion: string,
): VersionView | undefined {
  const prefix = def.group === '' ? '' : `${def.group}/`;
  const version = apiVersion.slice(prefix.length);
  if (!apiVersion.startsWith(prefix) || (version !== conversions.hub && conversions.versions[version] === undefined))
    return undefined;
  const convert = (obj: unknown): unknown =>
    isPlainObject(obj) && isPlainObject(obj['metadata'])
      ? convertObject(conversions, obj as ApiObject, def.group, def.kind, version, true)
      : obj;
  return { schema: schemaFor(apiVersion, def.kind), convert };
}

/** A store write transform recording the write as an Update by `manager`. */
export function trackedAs(
  manager: string,
  def: ResourceDefinition,
  subresource = '',
): (obj: ApiObject, live: ApiObject | undefined) => ApiObject {
  const scope = fieldManagerScopeOf(def, subresource);
  return (obj, live) => updateManagedFields(live, obj, manager, scope);
}

/**
 * A store write transform recording the write as a forced server-side apply of `configOf(obj)` by `manager` (what
 * client-go's Apply/ApplyStatus with Force records); the written object stays `obj`, only its managedFields change.
 */
export function appliedAs(
  manager: string,
  def: ResourceDefinition,
  subresource: string,
  configOf: (obj: ApiObject) => Record<string, unknown>,
): (obj: ApiObject, live: ApiObject | undefined) => ApiObject {
  const scope = fieldManagerScopeOf(def, subresource);
  return (obj, live) => {
    const applied = applyToObject(live, configOf(obj), manager, true, scope);
    obj.metadata.managedFields = applied.metadata.managedFields;
    if (obj.metadata.managedFields === undefined) delete obj.metadata.managedFields;
    return obj;
  };
}
