// Requests to a deprecated version: the Warning header, the apiserver_requested_deprecated_apis gauge and the audit annotations (pkg/endpoints/deprecation).
import type { ServerResponse } from 'node:http';
import type { ResourceRequestInfo } from '../../endpoints/request-info';
import type { Deprecation, ServedResource } from '../../registry/resource-registry';
import { warningHeaderValues } from '../../endpoints/handlers/write-response';
import { apiVersionOf } from '../../apimachinery/schema/group-version';
import { canonicalGroup } from '../../apimachinery/schema/group-aliases';
import type { ApiServerMetrics } from '../metrics/metrics';

/** The audit annotation keys (k8s.io/deprecated, k8s.io/removed-release under the orch domain). */
export const DEPRECATED_ANNOTATION = 'orch.io/deprecated';
export const REMOVED_RELEASE_ANNOTATION = 'orch.io/removed-release';

/** `<group>/<version> <Kind> is deprecated in v1.X+, unavailable in v1.Y+; use <group>/<version> <Kind>`. */
export function deprecationWarning(group: string, version: string, kind: string, deprecation: Deprecation): string {
  let text = `${apiVersionOf({ group, version })} ${kind} is deprecated in v${deprecation.deprecatedIn}+`;
  if (deprecation.removedIn !== undefined) text += `, unavailable in v${deprecation.removedIn}+`;
  const r = deprecation.replacement;
  if (r !== undefined) {
    // In the group name the request used (`flowcontrol.apiserver.k8s.io` asks, the same name answers), as 1.26 does.
    const replacementGroup = canonicalGroup(group) === r.group ? group : r.group;
    text += `; use ${apiVersionOf({ group: replacementGroup, version: r.version })} ${r.kind}`;
  }
  return text;
}

/** Marks a request to a deprecated version: Warning header first, gauge set, annotations for the audit event. */
export function markDeprecated(
  res: ServerResponse,
  served: ServedResource,
  info: ResourceRequestInfo,
  metrics: ApiServerMetrics,
  annotations: Record<string, string>,
): void {
  const deprecation = served.deprecation;
  if (!deprecation) return;
  const { group, version, kind } = served.definition;
  res.setHeader('Warning', warningHeaderValues([deprecationWarning(group, version, kind, deprecation)]));
  metrics.deprecatedApis.set(
    {
      group,
      version,
      resource: info.resource,
      subresource: info.subresource,
      removed_release: deprecation.removedIn ?? '',
    },
    1,
  );
  annotations[DEPRECATED_ANNOTATION] = 'true';
  if (deprecation.removedIn !== undefined) annotations[REMOVED_RELEASE_ANNOTATION] = deprecation.removedIn;
}
