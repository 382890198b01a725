// apiVersion + kind → the schema of that kind, for every root kind of the type catalog in a group this server knows.
import { catalogMessage } from './catalog';
import { messageNode } from './catalog-node';
import type { SchemaNode } from './node';

/**
 * The k8s.io/api package of a built-in group: `core` for the core group, else the group's first label
 * (`apps`, `flowcontrol.apiserver.orch.io` → `flowcontrol`), for groups without a domain or under the
 * orch.io / k8s.io domains; undefined for any other group.
 */
function packageOfGroup(group: string): string | undefined {
  if (group === '') return 'core';
  const dot = group.indexOf('.');
  if (dot < 0) return group;
  return group.endsWith('.orch.io') || group.endsWith('.k8s.io') ? group.slice(0, dot) : undefined;
}

const cache = new Map<string, SchemaNode | null>();

/** The catalog message of `apiVersion`/`kind` (`apps/v1`, `Deployment` → `k8s.io.api.apps.v1.Deployment`). */
export function messageNameFor(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const pkg = packageOfGroup(slash < 0 ? '' : apiVersion.slice(0, slash));
  const version = apiVersion.slice(slash + 1);
  if (pkg === undefined || version === '' || kind === '') return undefined;
  const name = `k8s.io.api.${pkg}.${version}.${kind}`;
  const message = catalogMessage(name);
  return message && message.jsonRepresentation === null ? name : undefined;
}

/**
 * The schema of a kind (Deployment, Namespace, HorizontalPodAutoscaler v1/v2, Scale, FlowSchema and
 * PriorityLevelConfiguration v1beta2/v1beta3, their lists…), or undefined when the catalog has none.
 * Built on first use and kept; the returned tree is shared and immutable.
 */
export function schemaFor(apiVersion: string, kind: string): SchemaNode | undefined {
  const key = `${apiVersion}\n${kind}`;
  let node = cache.get(key);
  if (node === undefined) {
    const name = messageNameFor(apiVersion, kind);
    node = name === undefined ? null : messageNode(name);
    cache.set(key, node);
  }
  return node ?? undefined;
}
