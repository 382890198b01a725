// ShouldCallHook: whether a webhook is called for a request, and with which served version of the object (its
// rules matched exactly, or through an equivalent version of the same storage under matchPolicy Equivalent).
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { AdmissionAttributes } from '../../../registry/generic/admission';
import type { RequestContext } from '../../../registry/generic/request-context';
import type { ResourceRegistry, ServedResource } from '../../../registry/resource-registry';
import {
  hasNamespaceSelector,
  objectSelectorMatches,
  rulesMatch,
  selectorMatches,
  type RequestTarget,
} from './matching';
import type { Webhook } from './source';

/** The served version a webhook is called with, and the target it matched. */
export interface Invocation {
  webhook: Webhook;
  served: ServedResource;
  target: RequestTarget;
}

/** ShouldCallHook: selectors first, then the rules against the request's version, else an equivalent one. */
export async function invocationOf(
  registry: ResourceRegistry,
  webhook: Webhook,
  attributes: AdmissionAttributes,
  context: RequestContext,
): Promise<Invocation | undefined> {
  const hook = webhook.spec;
  const isNamespace = attributes.definition.group === '' && attributes.definition.resource === 'namespaces';
  const namespace = isNamespace ? attributes.name || (attributes.object?.metadata.name ?? '') : attributes.namespace;
  // A scale write is admitted as the Scale, whose metadata has no labels.
  const scale =
    context.subresource === 'scale'
      ? registry.lookup(context.group, context.version, context.resource)?.scale
      : undefined;
  const shown = (obj: ApiObject | undefined): ApiObject | undefined => (obj && scale ? scale.toScale(obj) : obj);
  if (!objectSelectorMatches(hook, shown(attributes.object), shown(attributes.oldObject))) return undefined;
  if (hasNamespaceSelector(hook) && (namespace !== '' || isNamespace)) {
    const labels = isNamespace
      ? (attributes.object ?? attributes.oldObject)?.metadata.labels
      : await namespaceLabels(registry, namespace);
    if (!selectorMatches(hook['namespaceSelector'], labels as Record<string, string> | undefined)) return undefined;
  }
  const requested = registry.lookup(context.group, context.version, context.resource);
  if (!requested) return undefined;
  const base = {
    resource: context.resource,
    subresource: context.subresource,
    operation: attributes.operation,
    namespace,
  };
  const exact: RequestTarget = { ...base, group: requested.definition.group, version: requested.definition.version };
  if (rulesMatch(hook, exact)) return { webhook, served: requested, target: exact };
  if (hook['matchPolicy'] === 'Exact') return undefined;
  for (const other of registry.allVersions()) {
    if (other === requested || other.store.keyPrefix !== requested.store.keyPrefix) continue;
    const target: RequestTarget = {
      ...base,
      group: other.definition.group,
      version: other.definition.version,
      resource: other.definition.resource,
    };
    if (rulesMatch(hook, target)) return { webhook, served: other, target };
  }
  return undefined;
}

async function namespaceLabels(registry: ResourceRegistry, name: string): Promise<Record<string, string> | undefined> {
  const namespaces = registry.lookup('', 'v1', 'namespaces');
  try {
    return (await namespaces?.store.getAtVersion('', name, 0))?.metadata.labels as Record<string, string> | undefined;
  } catch {
    return undefined;
  }
}
