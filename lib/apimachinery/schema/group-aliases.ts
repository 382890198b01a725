// Kubernetes group names clients hard-code (`events.k8s.io`) → the orch groups this server serves them as.
// Routing (ResourceRegistry.lookup) and body decoding (decodeBody's apiVersion check) consult this one table;
// discovery lists the orch names only.

/** Served orch groups reachable under their Kubernetes name. */
const ALIASED_GROUPS: readonly string[] = ['events.orch.io', 'admissionregistration.orch.io'];

const BY_ALIAS: ReadonlyMap<string, string> = new Map(ALIASED_GROUPS.map((group) => [group.replace(/\.orch\.io$/, '.k8s.io'), group]));

/** The Kubernetes name of a served orch group (`events.orch.io` → `events.k8s.io`), if clients may also use it. */
export function kubernetesAlias(group: string): string | undefined {
  return ALIASED_GROUPS.includes(group) ? group.replace(/\.orch\.io$/, '.k8s.io') : undefined;
}

/** The orch group of a Kubernetes group alias; any other group unchanged. */
export function canonicalGroup(group: string): string {
  return BY_ALIAS.get(group) ?? group;
}

/** `events.k8s.io/v1` → `events.orch.io/v1`; other apiVersions unchanged. */
export function canonicalApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return apiVersion;
  const group = apiVersion.slice(0, slash);
  const canonical = canonicalGroup(group);
  return canonical === group ? apiVersion : `${canonical}${apiVersion.slice(slash)}`;
}
