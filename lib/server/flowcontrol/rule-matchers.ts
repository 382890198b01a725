// FlowSchema rules compiled into Set-based matchers, read defensively from stored JSON (wrong types never match).
import { isPlainObject } from '../../apimachinery/meta/types';
import type { RequestInfo } from '../../endpoints/request-info';

const WILDCARD = '*';
export const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** What a request is matched on (besides its user), prepared once per request. */
export interface PreparedRequest {
  info: RequestInfo;
  /** `resource` or `resource/subresource`; empty for non-resource requests. */
  resourceKey: string;
}

/** A set-valued field: `all` when it lists `*`. An empty list matches nothing. */
interface ListMatcher {
  all: boolean;
  set: ReadonlySet<string>;
}

export interface SubjectMatcher {
  /** A User `*` or Group `*` subject: every request's user matches. */
  everyone: boolean;
  users: ReadonlySet<string>;
  groups: ReadonlySet<string>;
  /** `system:serviceaccount:<ns>:<name>` user names. */
  serviceAccounts: ReadonlySet<string>;
  /** Namespaces of ServiceAccount subjects named `*`. */
  serviceAccountNamespaces: ReadonlySet<string>;
}

interface ResourceRuleMatcher {
  verbs: ListMatcher;
  apiGroups: ListMatcher;
  resources: ListMatcher;
  clusterScope: boolean;
  /** `namespaces` lists `*` or `""` (spec: any specified namespace). */
  anyNamespace: boolean;
  namespaces: ReadonlySet<string>;
}

interface NonResourceRuleMatcher {
  verbs: ListMatcher;
  allURLs: boolean;
  exactURLs: ReadonlySet<string>;
  /** Entries ending in `/`: they match every path they prefix. */
  prefixURLs: readonly string[];
}

export interface RuleMatcher {
  subjects: SubjectMatcher;
  resourceRules: readonly ResourceRuleMatcher[];
  nonResourceRules: readonly NonResourceRuleMatcher[];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function listMatcher(value: unknown): ListMatcher {
  const items = strings(value);
  return { all: items.includes(WILDCARD), set: new Set(items) };
}

function nameOf(value: unknown): string | undefined {
  return isPlainObject(value) && typeof value['name'] === 'string' ? value['name'] : undefined;
}

function compileSubjects(value: unknown): SubjectMatcher {
  const users = new Set<string>();
  const groups = new Set<string>();
  const serviceAccounts = new Set<string>();
  const serviceAccountNamespaces = new Set<string>();
  let everyone = false;
  for (const subject of Array.isArray(value) ? value : []) {
    if (!isPlainObject(subject)) continue;
    if (subject['kind'] === 'User') {
      const name = nameOf(subject['user']);
      if (name === WILDCARD) everyone = true;
      else if (name !== undefined) users.add(name);
    } else if (subject['kind'] === 'Group') {
      const name = nameOf(subject['group']);
      if (name === WILDCARD) everyone = true;
      else if (name !== undefined) groups.add(name);
    } else if (subject['kind'] === 'ServiceAccount') {
      const sa = subject['serviceAccount'];
      const name = nameOf(sa);
      const namespace = isPlainObject(sa) && typeof sa['namespace'] === 'string' ? sa['namespace'] : undefined;
      if (name === undefined || namespace === undefined) continue;
      if (name === WILDCARD) serviceAccountNamespaces.add(namespace);
      else serviceAccounts.add(`${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`);
    }
  }
  return { everyone, users, groups, serviceAccounts, serviceAccountNamespaces };
}

function compileResourceRule(rule: Record<string, unknown>): ResourceRuleMatcher {
  const namespaces = strings(rule['namespaces']);
  return {
    verbs: listMatcher(rule['verbs']),
    apiGroups: listMatcher(rule['apiGroups']),
    resources: listMatcher(rule['resources']),
    clusterScope: rule['clusterScope'] === true,
    anyNamespace: namespaces.includes(WILDCARD) || namespaces.includes(''),
    namespaces: new Set(namespaces),
  };
}

function compileNonResourceRule(rule: Record<string, unknown>): NonResourceRuleMatcher {
  const urls = strings(rule['nonResourceURLs']);
  return {
    verbs: listMatcher(rule['verbs']),
    allURLs: urls.includes(WILDCARD),
    exactURLs: new Set(urls),
    prefixURLs: urls.filter((url) => url.endsWith('/')),
  };
}

/** `spec.rules` of a FlowSchema; rules that cannot match anything are dropped. */
export function compileRules(value: unknown): RuleMatcher[] {
  const out: RuleMatcher[] = [];
  for (const rule of Array.isArray(value) ? value : []) {
    if (!isPlainObject(rule)) continue;
    const resourceRules = (Array.isArray(rule['resourceRules']) ? rule['resourceRules'] : [])
      .filter(isPlainObject)
      .map(compileResourceRule);
    const nonResourceRules = (Array.isArray(rule['nonResourceRules']) ? rule['nonResourceRules'] : [])
      .filter(isPlainObject)
      .map(compileNonResourceRule);
    const subjects = compileSubjects(rule['subjects']);
    const noSubjects =
      !subjects.everyone &&
      subjects.users.size +
        subjects.groups.size +
        subjects.serviceAccounts.size +
        subjects.serviceAccountNamespaces.size ===
        0;
    if (noSubjects || resourceRules.length + nonResourceRules.length === 0) continue;
    out.push({ subjects, resourceRules, nonResourceRules });
  }
  return out;
}

function resourceRuleMatches(
  r: ResourceRuleMatcher,
  req: PreparedRequest,
  info: RequestInfo & { isResourceRequest: true },
): boolean {
  if (!(r.verbs.all || r.verbs.set.has(info.verb))) return false;
  if (!(r.apiGroups.all || r.apiGroups.set.has(info.apiGroup))) return false;
  if (!(r.resources.all || r.resources.set.has(req.resourceKey))) return false;
  if (info.namespace === '') return r.clusterScope;
  return r.anyNamespace || r.namespaces.has(info.namespace);
}

function nonResourceRuleMatches(r: NonResourceRuleMatcher, info: RequestInfo): boolean {
  if (!(r.verbs.all || r.verbs.set.has(info.verb))) return false;
  if (r.allURLs || r.exactURLs.has(info.path)) return true;
  for (const prefix of r.prefixURLs) if (info.path.startsWith(prefix)) return true;
  return false;
}

/** Whether some resource rule (resource requests) or non-resource rule (others) of the rule matches; subjects aside. */
export function requestMatches(rule: RuleMatcher, req: PreparedRequest): boolean {
  const info = req.info;
  if (info.isResourceRequest) {
    for (const r of rule.resourceRules) if (resourceRuleMatches(r, req, info)) return true;
  } else {
    for (const r of rule.nonResourceRules) if (nonResourceRuleMatches(r, info)) return true;
  }
  return false;
}
