// Kubernetes group names clients hard-code (typed clients, kubectl auth/create/events) for groups served here under orch.io:
// both names reach the same resources; discovery lists this one right before the orch.io one.

/** The groups served at their k8s.io path too. */
const ALIASED_GROUPS: ReadonlyMap<string, string> = new Map([
  ['rbac.authorization.k8s.io', 'rbac.authorization.orch.io'],
  ['authorization.k8s.io', 'authorization.orch.io'],
  ['authentication.k8s.io', 'authentication.orch.io'],
  ['events.k8s.io', 'events.orch.io'],
  ['admissionregistration.k8s.io', 'admissionregistration.orch.io'],
  ['flowcontrol.apiserver.k8s.io', 'flowcontrol.apiserver.orch.io'],
]);

/** The served (orch.io) name of a group; other names unchanged. */
export function canonicalGroup(group: string): string {
  return ALIASED_GROUPS.get(group) ?? group;
}

/** The k8s.io name of a served group that has one. */
export function kubernetesGroupOf(group: string): string | undefined {
  for (const [k8s, orch] of ALIASED_GROUPS) if (orch === group) return k8s;
  return undefined;
}

/** `group/version` with the group canonical. */
export function canonicalApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return apiVersion;
  return `${canonicalGroup(apiVersion.slice(0, slash))}${apiVersion.slice(slash)}`;
}
