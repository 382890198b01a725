// FlowSchema spec validation (pkg/apis/flowcontrol/validation of Kubernetes 1.26, with the orch spec's two deviations).
import type { FieldError } from '../../apimachinery/field/errors';
import {
  forbiddenField,
  goLiteral,
  goQuote,
  invalidValue,
  notSupported,
  required,
} from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { validateDNS1123LabelName, validateDNS1123SubdomainName } from '../../apimachinery/validation/names';
import {
  WRONG_TYPE,
  goStringSliceText,
  readBoolean,
  readInt32,
  readList,
  readObject,
  readString,
  readStringList,
} from '../../apimachinery/validation/untrusted-json';

export const FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE = 10000;
export const FLOW_SCHEMA_NAME_EXEMPT = 'exempt';
const WILDCARD = '*';

// Sorted, as Go's sets.String.List() supplies them.
const SUPPORTED_DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUPPORTED_SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];

const NS_ERR_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

// The orch spec forbids what Kubernetes allows here (`/healthz/*`, any partial wildcard); these
// two details are ours, worded in Kubernetes' style.
export const URL_TRAILING_SLASH_STAR = 'must not end with "/*"; a path ending in "/" matches all its sub-paths';
export const URL_PARTIAL_WILDCARD = 'partial wildcards are not allowed';

/** Spec errors in Kubernetes' order; `name` is metadata.name (matchingPrecedence 1 is reserved to `exempt`). */
export function validateFlowSchemaSpec(name: string, value: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const spec = readObject(errs, path, value);
  if (spec === WRONG_TYPE) return errs;
  const s = spec ?? {};

  const precedencePath = path.child('matchingPrecedence');
  const precedence = readInt32(errs, precedencePath, s.matchingPrecedence);
  if (precedence !== WRONG_TYPE) {
    const p = precedence ?? 0;
    if (p <= 0) errs.push(invalidValue(precedencePath, p, 'must be a positive value'));
    if (p > FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE) {
      errs.push(invalidValue(precedencePath, p, `must not be greater than ${FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE}`));
    }
    if (p === 1 && name !== FLOW_SCHEMA_NAME_EXEMPT) {
      errs.push(invalidValue(precedencePath, p, "only the schema named 'exempt' may have matchingPrecedence 1"));
    }
  }

  const methodPath = path.child('distinguisherMethod');
  const method = readObject(errs, methodPath, s.distinguisherMethod);
  if (method !== WRONG_TYPE && method !== undefined) {
    const type = readString(errs, methodPath.child('type'), method.type);
    if (type !== WRONG_TYPE && !SUPPORTED_DISTINGUISHER_METHODS.includes(type ?? '')) {
      // Kubernetes passes the whole struct as the value.
      const shown = goLiteral(`flowcontrol.FlowDistinguisherMethod{Type:${goQuote(type ?? '')}}`);
      errs.push(notSupported(methodPath.child('type'), shown, SUPPORTED_DISTINGUISHER_METHODS));
    }
  }

  const refPath = path.child('priorityLevelConfiguration');
  const ref = readObject(errs, refPath, s.priorityLevelConfiguration);
  if (ref !== WRONG_TYPE) {
    const plNamePath = refPath.child('name');
    const plName = readString(errs, plNamePath, ref?.name);
    if (plName !== WRONG_TYPE) {
      if (plName !== undefined && plName.length > 0) {
        for (const msg of validateDNS1123SubdomainName(plName, false)) errs.push(invalidValue(plNamePath, plName, msg));
      } else {
        errs.push(required(plNamePath, 'must reference a priority level'));
      }
    }
  }

  const rules = readList(errs, path.child('rules'), s.rules);
  if (rules !== WRONG_TYPE) {
    (rules ?? []).forEach((rule, i) => validatePolicyRulesWithSubjects(errs, rule, path.child('rules').index(i)));
  }
  return errs;
}

function validatePolicyRulesWithSubjects(errs: FieldError[], value: unknown, path: FieldPath): void {
  const rule = readObject(errs, path, value);
  if (rule === WRONG_TYPE) return;
  const r = rule ?? {};

  const subjectsPath = path.child('subjects');
  const subjects = readList(errs, subjectsPath, r.subjects);
  if (subjects !== WRONG_TYPE) {
    if (subjects !== undefined && subjects.length > 0) {
      subjects.forEach((subject, i) => validateSubject(errs, subject, subjectsPath.index(i)));
    } else {
      errs.push(required(subjectsPath, 'subjects must contain at least one value'));
    }
  }

  const resourceRules = readList(errs, path.child('resourceRules'), r.resourceRules);
  const nonResourceRules = readList(errs, path.child('nonResourceRules'), r.nonResourceRules);
  if (
    resourceRules !== WRONG_TYPE &&
    nonResourceRules !== WRONG_TYPE &&
    (resourceRules ?? []).length === 0 &&
    (nonResourceRules ?? []).length === 0
  ) {
    errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  if (resourceRules !== WRONG_TYPE) {
    (resourceRules ?? []).forEach((rr, i) =>
      validateResourcePolicyRule(errs, rr, path.child('resourceRules').index(i)),
    );
  }
  if (nonResourceRules !== WRONG_TYPE) {
    (nonResourceRules ?? []).forEach((nr, i) =>
      validateNonResourcePolicyRule(errs, nr, path.child('nonResourceRules').index(i)),
    );
  }
}

// A member set for another kind is forbidden whatever its content, so it needs no type check.
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

const FORBIDDEN_USER = "user is forbidden when subject kind is not 'User'";
const FORBIDDEN_GROUP = "group is forbidden when subject kind is not 'Group'";
const FORBIDDEN_SERVICE_ACCOUNT = "serviceAccount is forbidden when subject kind is not 'ServiceAccount'";

function validateSubject(errs: FieldError[], value: unknown, path: FieldPath): void {
  const subject = readObject(errs, path, value);
  if (subject === WRONG_TYPE) return;
  const s = subject ?? {};
  const kind = readString(errs, path.child('kind'), s.kind);
  if (kind === WRONG_TYPE) return;
  switch (kind ?? '') {
    case 'ServiceAccount':
      validateServiceAccountSubject(errs, s.serviceAccount, path.child('serviceAccount'));
      if (isSet(s.user)) errs.push(forbiddenField(path.child('user'), FORBIDDEN_USER));
      if (isSet(s.group)) errs.push(forbiddenField(path.child('group'), FORBIDDEN_GROUP));
      break;
    case 'User':
      validateNamedSubject(errs, s.user, path.child('user'), "user is required when subject kind is 'User'");
      if (isSet(s.serviceAccount)) errs.push(forbiddenField(path.child('serviceAccount'), FORBIDDEN_SERVICE_ACCOUNT));
      if (isSet(s.group)) errs.push(forbiddenField(path.child('group'), FORBIDDEN_GROUP));
      break;
    case 'Group':
      validateNamedSubject(errs, s.group, path.child('group'), "group is required when subject kind is 'Group'");
      if (isSet(s.serviceAccount)) errs.push(forbiddenField(path.child('serviceAccount'), FORBIDDEN_SERVICE_ACCOUNT));
      if (isSet(s.user)) errs.push(forbiddenField(path.child('user'), FORBIDDEN_USER));
      break;
    default:
      errs.push(notSupported(path.child('kind'), kind ?? '', SUPPORTED_SUBJECT_KINDS));
  }
}

function validateServiceAccountSubject(errs: FieldError[], value: unknown, path: FieldPath): void {
  const sa = readObject(errs, path, value);
  if (sa === WRONG_TYPE) return;
  if (sa === undefined) {
    errs.push(required(path, "serviceAccount is required when subject kind is 'ServiceAccount'"));
    return;
  }
  const name = readString(errs, path.child('name'), sa.name);
  if (name !== WRONG_TYPE) {
    if (name === undefined || name === '') errs.push(required(path.child('name')));
    else if (name !== WILDCARD) {
      for (const msg of validateDNS1123SubdomainName(name, false))
        errs.push(invalidValue(path.child('name'), name, msg));
    }
  }
  const namespace = readString(errs, path.child('namespace'), sa.namespace);
  if (namespace !== WRONG_TYPE) {
    if (namespace !== undefined && namespace.length > 0) {
      for (const msg of validateDNS1123LabelName(namespace, false))
        errs.push(invalidValue(path.child('namespace'), namespace, msg));
    } else {
      errs.push(required(path.child('namespace'), 'must specify namespace for service account'));
    }
  }
}

/** User and Group subjects: only a non-empty name is required. */
function validateNamedSubject(errs: FieldError[], value: unknown, path: FieldPath, missing: string): void {
  const subject = readObject(errs, path, value);
  if (subject === WRONG_TYPE) return;
  if (subject === undefined) {
    errs.push(required(path, missing));
    return;
  }
  const name = readString(errs, path.child('name'), subject.name);
  if (name !== WRONG_TYPE && (name === undefined || name === '')) errs.push(required(path.child('name')));
}

function validateVerbs(errs: FieldError[], value: unknown, path: FieldPath): void {
  const verbs = readStringList(errs, path, value);
  if (verbs === WRONG_TYPE) return;
  if (verbs === undefined || verbs.length === 0) {
    errs.push(required(path, 'verbs must contain at least one value'));
  } else if (verbs.includes(WILDCARD)) {
    if (verbs.length > 1)
      errs.push(
        invalidValue(path, goLiteral(goStringSliceText(verbs)), "if '*' is present, must not specify other verbs"),
      );
  } else if (!verbs.every((v) => SUPPORTED_VERBS.includes(v))) {
    errs.push(notSupported(path, goLiteral(goStringSliceText(verbs)), SUPPORTED_VERBS));
  }
}

/** apiGroups and resources: non-empty, and `*` only alone. */
function validateWildcardList(
  errs: FieldError[],
  value: unknown,
  path: FieldPath,
  missing: string,
  what: string,
): void {
  const list = readStringList(errs, path, value);
  if (list === WRONG_TYPE) return;
  if (list === undefined || list.length === 0) errs.push(required(path, missing));
  else if (list.length > 1 && list.includes(WILDCARD)) {
    errs.push(
      invalidValue(path, goLiteral(goStringSliceText(list)), `if '*' is present, must not specify other ${what}`),
    );
  }
}

function validateResourcePolicyRule(errs: FieldError[], value: unknown, path: FieldPath): void {
  const rule = readObject(errs, path, value);
  if (rule === WRONG_TYPE) return;
  const r = rule ?? {};
  validateVerbs(errs, r.verbs, path.child('verbs'));
  validateWildcardList(
    errs,
    r.apiGroups,
    path.child('apiGroups'),
    'resource rules must supply at least one api group',
    'api groups',
  );
  validateWildcardList(
    errs,
    r.resources,
    path.child('resources'),
    'resource rules must supply at least one resource',
    'resources',
  );

  const clusterScope = readBoolean(errs, path.child('clusterScope'), r.clusterScope);
  const nsPath = path.child('namespaces');
  const namespaces = readStringList(errs, nsPath, r.namespaces);
  if (namespaces === WRONG_TYPE) return;
  const list = namespaces ?? [];
  if (list.length === 0) {
    if (clusterScope !== WRONG_TYPE && clusterScope !== true) {
      errs.push(required(nsPath, 'resource rules that are not cluster scoped must supply at least one namespace'));
    }
  } else if (list.includes(WILDCARD)) {
    if (list.length > 1)
      errs.push(
        invalidValue(
          nsPath,
          goLiteral(goStringSliceText(list)),
          "if '*' is present, must not specify other namespaces",
        ),
      );
  } else {
    list.forEach((ns, i) => {
      // Spec deviation: "" means "any specified namespace" (Kubernetes 1.26 rejects it; `*` is its form).
      if (ns === '') return;
      for (const msg of validateDNS1123LabelName(ns, false))
        errs.push(invalidValue(nsPath.index(i), ns, NS_ERR_INTRO + msg));
    });
  }
}

function validateNonResourcePolicyRule(errs: FieldError[], value: unknown, path: FieldPath): void {
  const rule = readObject(errs, path, value);
  if (rule === WRONG_TYPE) return;
  const r = rule ?? {};
  validateVerbs(errs, r.verbs, path.child('verbs'));

  const urlsPath = path.child('nonResourceURLs');
  const urls = readStringList(errs, urlsPath, r.nonResourceURLs);
  if (urls === WRONG_TYPE) return;
  if (urls === undefined || urls.length === 0) {
    errs.push(required(urlsPath, 'nonResourceURLs must contain at least one value'));
  } else if (urls.includes(WILDCARD)) {
    if (urls.length > 1)
      errs.push(
        invalidValue(
          urlsPath,
          goLiteral(goStringSliceText(urls)),
          "if '*' is present, must not specify other non-resource URLs",
        ),
      );
  } else {
    urls.forEach((url, i) => {
      const err = validateNonResourceURLPath(url, urlsPath.index(i));
      if (err !== undefined) errs.push(err);
    });
  }
}

/** One URL, first failing check only (as Kubernetes' ValidateNonResourceURLPath). */
export function validateNonResourceURLPath(url: string, path: FieldPath): FieldError | undefined {
  if (url === '') return invalidValue(path, url, 'must not be empty');
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return invalidValue(path, url, 'must start with slash');
  if (url.includes(' ')) return invalidValue(path, url, 'must not contain white-space');
  if (url.includes('//')) return invalidValue(path, url, 'must not contain double slash');
  // Spec deviation: Kubernetes accepts exactly one `*` as a final `/*`; the spec allows none.
  if (url.includes(WILDCARD)) {
    const onlyTrailing = url.endsWith('/*') && url.indexOf(WILDCARD) === url.length - 1;
    return invalidValue(path, url, onlyTrailing ? URL_TRAILING_SLASH_STAR : URL_PARTIAL_WILDCARD);
  }
  return undefined;
}
