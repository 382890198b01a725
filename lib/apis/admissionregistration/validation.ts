// Validating/MutatingWebhookConfiguration validation with pkg/apis/admissionregistration/validation's texts (v1
// rules: sideEffects None or NoneOnDryRun, admissionReviewVersions required with v1 or v1beta1, unique names). An
// update keeps accepting what the stored object already had (other side effects, no known review version,
// repeated names), as Kubernetes relaxes each rule the old object breaks.
import type { FieldError } from '../../apimachinery/field/errors';
import { duplicate, goLiteral, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { isDNS1123Subdomain } from '../../apimachinery/validation/names';
import { goStringSliceText, objectsAt, stringAt } from '../../apimachinery/validation/untrusted-json';
import { readLabelSelector, validateLabelSelector } from '../apps/label-selector';
import { parseGoUrl, type GoUrl } from './go-url';

const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const ANY_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const list = (value: unknown): PrintableList => goLiteral(goStringSliceText(strings(value)));
type PrintableList = ReturnType<typeof goLiteral>;

/** utilvalidation.IsFullyQualifiedName. */
function validateFullyQualifiedName(path: FieldPath, name: string): FieldError[] {
  if (name === '') return [required(path)];
  const errs = isDNS1123Subdomain(name).map((msg) => invalidValue(path, name, msg));
  if (errs.length === 0 && name.split('.').length < 3)
    errs.push(invalidValue(path, name, 'should be a domain with at least three segments separated by dots'));
  return errs;
}

function validateResources(resources: string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const wildcardSub = new Set<string>();
  const wildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') return void errs.push(required(path.index(i)));
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) return void (withoutSub = resSub !== '*');
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (wildcardSub.has(res))
      errs.push(invalidValue(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (wildcardRes.has(sub))
      errs.push(invalidValue(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') wildcardSub.add(res);
    if (res === '*') wildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard)
    errs.push(invalidValue(path, list(resources), "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub)
    errs.push(
      invalidValue(path, list(resources), "if '*' is present, must not specify other resources without subresources"),
    );
  return errs;
}

function validateRule(rule: Record<string, unknown>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const operations = strings(rule['operations']);
  if (operations.length === 0) errs.push(required(path.child('operations')));
  if (operations.length > 1 && operations.includes('*'))
    errs.push(
      invalidValue(path.child('operations'), list(operations), "if '*' is present, must not specify other operations"),
    );
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(path.child('operations').index(i), op, OPERATIONS));
  });
  const groups = strings(rule['apiGroups']);
  if (groups.length === 0) errs.push(required(path.child('apiGroups')));
  if (groups.length > 1 && groups.includes('*'))
    errs.push(
      invalidValue(path.child('apiGroups'), list(groups), "if '*' is present, must not specify other API groups"),
    );
  const versions = strings(rule['apiVersions']);
  if (versions.length === 0) errs.push(required(path.child('apiVersions')));
  if (versions.length > 1 && versions.includes('*'))
    errs.push(
      invalidValue(path.child('apiVersions'), list(versions), "if '*' is present, must not specify other API versions"),
    );
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(path.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(strings(rule['resources']), path.child('resources')));
  const scope = rule['scope'];
  if (typeof scope === 'string' && !SCOPES.includes(scope)) errs.push(notSupported(path.child('scope'), scope, SCOPES));
  return errs;
}

/** webhook.ValidateWebhookURL with forceHttps: each error names the offending part of the URL. */
function validateUrl(path: FieldPath, text: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  let url: GoUrl;
  try {
    url = parseGoUrl(text);
  } catch (err) {
    return [required(path, `url must be a valid URL: ${(err as Error).message}${form}`)];
  }
  const errs: FieldError[] = [];
  if (url.scheme !== 'https')
    errs.push(invalidValue(path, url.scheme, `'https' is the only allowed URL scheme${form}`));
  if (url.host === '') errs.push(invalidValue(path, url.host, `host must be specified${form}`));
  if (url.user !== undefined) errs.push(invalidValue(path, url.user, 'user information is not permitted in the URL'));
  if (url.fragment !== '') errs.push(invalidValue(path, url.fragment, 'fragments are not permitted in the URL'));
  if (url.rawQuery !== '') errs.push(invalidValue(path, url.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService. */
function validateService(path: FieldPath, service: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (stringAt(service, 'name') === '') errs.push(required(path.child('name'), 'service name is required'));
  if (stringAt(service, 'namespace') === '')
    errs.push(required(path.child('namespace'), 'service namespace is required'));
  const port = service['port'];
  if (typeof port === 'number' && (port < 1 || port > 65535 || !Number.isInteger(port)))
    errs.push(invalidValue(path.child('port'), port, `port is not valid: must be between 1 and 65535, inclusive`));
  const svcPath = service['path'];
  if (typeof svcPath === 'string' && svcPath !== '' && !svcPath.startsWith('/'))
    errs.push(invalidValue(path.child('path'), svcPath, "must start with a '/'"));
  return errs;
}

/** Rules an update relaxes when the stored object already breaks them (validationOptions). */
interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedReviewVersion: boolean;
  requireUniqueNames: boolean;
}

const STRICT: Options = { requireNoSideEffects: true, requireRecognizedReviewVersion: true, requireUniqueNames: true };

function validateReviewVersions(versions: unknown, path: FieldPath, requireRecognized: boolean): FieldError[] {
  const values = strings(versions);
  if (values.length === 0) return [required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) return void errs.push(invalidValue(path.index(i), v, 'duplicate version'));
    seen.add(v);
    if (!DNS1035_LABEL.test(v) || v.length > 63)
      errs.push(
        invalidValue(
          path.index(i),
          v,
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
  });
  if (requireRecognized && !values.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)))
    errs.push(invalidValue(path, list(values), `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(
  hook: Record<string, unknown>,
  path: FieldPath,
  mutating: boolean,
  options: Options,
): FieldError[] {
  const errs = validateFullyQualifiedName(path.child('name'), stringAt(hook, 'name'));
  objectsAt(hook, 'rules').forEach((rule, i) => errs.push(...validateRule(rule, path.child('rules').index(i))));
  const pick = (key: string, supported: string[]): void => {
    const value = hook[key];
    if (typeof value === 'string' && !supported.includes(value))
      errs.push(notSupported(path.child(key), value, supported));
  };
  pick('failurePolicy', FAILURE_POLICIES);
  pick('matchPolicy', MATCH_POLICIES);
  const sideEffects = options.requireNoSideEffects ? NO_SIDE_EFFECTS : ANY_SIDE_EFFECTS;
  if (hook['sideEffects'] === undefined || hook['sideEffects'] === null)
    errs.push(required(path.child('sideEffects'), `must specify one of ${sideEffects.join(', ')}`));
  else pick('sideEffects', sideEffects);
  const timeout = hook['timeoutSeconds'];
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1))
    errs.push(
      invalidValue(path.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'),
    );
  for (const key of ['namespaceSelector', 'objectSelector']) {
    const selector = readLabelSelector(errs, path.child(key), hook[key]);
    if (selector !== undefined && typeof selector !== 'symbol')
      errs.push(...validateLabelSelector(selector, path.child(key)));
  }
  if (mutating) pick('reinvocationPolicy', REINVOCATION_POLICIES);
  const config = isPlainObject(hook['clientConfig']) ? hook['clientConfig'] : {};
  const url = config['url'];
  const service = config['service'];
  const hasUrl = typeof url === 'string';
  const hasService = isPlainObject(service);
  if (hasUrl === hasService)
    errs.push(required(path.child('clientConfig'), 'exactly one of url or service is required'));
  else if (hasUrl) errs.push(...validateUrl(path.child('clientConfig', 'url'), url));
  else if (hasService) errs.push(...validateService(path.child('clientConfig', 'service'), service));
  errs.push(
    ...validateReviewVersions(
      hook['admissionReviewVersions'],
      path.child('admissionReviewVersions'),
      options.requireRecognizedReviewVersion,
    ),
  );
  return errs;
}

function validateConfiguration(obj: ApiObject, mutating: boolean, options: Options): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objectsAt(obj, 'webhooks').forEach((hook, i) => {
    const path = FieldPath.root('webhooks').index(i);
    errs.push(...validateWebhook(hook, path, mutating, options));
    const name = stringAt(hook, 'name');
    if (!options.requireUniqueNames || name === '') return;
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    names.add(name);
  });
  return errs;
}

/** The rules the stored webhooks all keep stay required; a rule one of them breaks is relaxed for the update. */
function optionsForUpdate(old: ApiObject): Options {
  const hooks = objectsAt(old, 'webhooks');
  const names = hooks.map((hook) => stringAt(hook, 'name'));
  return {
    requireNoSideEffects: hooks.every((hook) => NO_SIDE_EFFECTS.includes(stringAt(hook, 'sideEffects'))),
    requireRecognizedReviewVersion: hooks.every((hook) => {
      const versions = strings(hook['admissionReviewVersions']);
      return versions.length === 0 || versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueNames: new Set(names).size === names.length,
  };
}

export const validateValidatingWebhookConfiguration = (obj: ApiObject): FieldError[] =>
  validateConfiguration(obj, false, STRICT);
export const validateMutatingWebhookConfiguration = (obj: ApiObject): FieldError[] =>
  validateConfiguration(obj, true, STRICT);
export const validateValidatingWebhookConfigurationUpdate = (obj: ApiObject, old: ApiObject): FieldError[] =>
  validateConfiguration(obj, false, optionsForUpdate(old));
export const validateMutatingWebhookConfigurationUpdate = (obj: ApiObject, old: ApiObject): FieldError[] =>
  validateConfiguration(obj, true, optionsForUpdate(old));
