// Container env and envFrom (ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom) with pkg/apis/core/validation's 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import {
  isDNS1123Subdomain,
  isQualifiedName,
  regexError,
  validateDNS1123SubdomainName,
  maxLenError,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
} from '../../apimachinery/validation/names';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  isAbsent,
  readObject,
  readObjectList,
  readString,
} from '../../apimachinery/validation/untrusted-json';
import { parseQuantity } from './validation-resources';

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME_ERR =
  "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY_ERR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

/** sets.List() order of validEnvDownwardAPIFieldPathExpressions (1.26). */
const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
];
/** The labels ConvertDownwardAPIFieldLabel (pkg/apis/core/pods, 1.26) accepts without a subscript. */
const DOWNWARD_API_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.podIP',
  'status.podIPs',
]);
const RESOURCE_FIELD_PATHS = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];
/** DownwardAPIHugePages is on by default in 1.26. */
const RESOURCE_FIELD_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

function chDirErrors(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  return value.startsWith('..') ? ["must not start with '..'"] : [];
}

/** validation.IsEnvVarName */
export function isEnvVarName(name: string): string[] {
  const errs: string[] = [];
  if (!new RegExp(`^${ENV_VAR_NAME_FMT}$`).test(name))
    errs.push(regexError(ENV_VAR_NAME_ERR, ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  return [...errs, ...chDirErrors(name)];
}

/** validation.IsConfigMapKey */
function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (key.length > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!new RegExp(`^${CONFIG_MAP_KEY_FMT}$`).test(key))
    errs.push(regexError(CONFIG_MAP_KEY_ERR, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  return [...errs, ...chDirErrors(key)];
}

/** fieldpath.SplitMaybeSubscriptedPath */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  return at > 0 ? [s.slice(0, at), s.slice(at + 2)] : undefined;
}

/** validateObjectFieldSelector; `expressions` in sets.List() order. apiVersion is defaulted to v1 before this runs. */
export function validateObjectFieldSelector(
  errs: FieldError[],
  ref: JsonObject,
  path: FieldPath,
  expressions: readonly string[],
): void {
  const apiVersion = readString(errs, path.child('apiVersion'), ref.apiVersion);
  const fieldPath = readString(errs, path.child('fieldPath'), ref.fieldPath);
  if (apiVersion === WRONG_TYPE || fieldPath === WRONG_TYPE) return;
  if (!apiVersion) return void errs.push(required(path.child('apiVersion')));
  if (!fieldPath) return void errs.push(required(path.child('fieldPath')));
  const sub = splitSubscript(fieldPath);
  let conversionError: string | undefined;
  if (apiVersion !== 'v1') conversionError = `unsupported pod version: ${apiVersion}`;
  else if (sub !== undefined && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels')
    conversionError = `field label does not support subscript: ${fieldPath}`;
  else if (sub === undefined && !DOWNWARD_API_LABELS.has(fieldPath) && fieldPath !== 'spec.host')
    conversionError = `field label not supported: ${fieldPath}`;
  if (conversionError !== undefined)
    return void errs.push(
      invalidValue(path.child('fieldPath'), fieldPath, `error converting fieldPath: ${conversionError}`),
    );
  if (sub !== undefined) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    for (const msg of isQualifiedName(key)) errs.push(invalidValue(path, key, msg));
    return;
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  if (!expressions.includes(internal)) errs.push(notSupported(path.child('fieldPath'), internal, expressions));
}

function validateFieldRef(errs: FieldError[], ref: JsonObject, path: FieldPath): void {
  validateObjectFieldSelector(errs, ref, path, ENV_FIELD_PATHS);
}

const CPU_DIVISORS = [1e-3, 1];
const BYTE_DIVISORS = [1, 1e3, 1e6, 1e9, 1e12, 1e15, 1e18, 2 ** 10, 2 ** 20, 2 ** 30, 2 ** 40, 2 ** 50, 2 ** 60];
const BYTE_DIVISOR_TEXT =
  "only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the";

/** validateContainerResourceDivisor: a divisor's canonical value must be one of the listed ones. */
function validateDivisor(errs: FieldError[], resource: string, raw: unknown, path: FieldPath): void {
  const divisor = parseQuantity(raw);
  if (divisor === undefined || divisor.value === 0) return;
  const ok = (allowed: number[]): boolean => allowed.some((v) => Math.abs(v - divisor.value) <= v * 1e-12);
  const p = path.child('divisor');
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !ok(CPU_DIVISORS))
    errs.push(invalidValue(p, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
  if ((resource === 'limits.memory' || resource === 'requests.memory') && !ok(BYTE_DIVISORS))
    errs.push(invalidValue(p, resource, `${BYTE_DIVISOR_TEXT} memory resource`));
  if (resource.endsWith('.ephemeral-storage') && RESOURCE_FIELD_PATHS.includes(resource) && !ok(BYTE_DIVISORS))
    errs.push(invalidValue(p, resource, `${BYTE_DIVISOR_TEXT} local ephemeral storage resource`));
  if (RESOURCE_FIELD_PREFIXES.some((prefix) => resource.startsWith(prefix)) && !ok(BYTE_DIVISORS))
    errs.push(invalidValue(p, resource, `${BYTE_DIVISOR_TEXT} hugepages resource`));
}

/** validateContainerResourceFieldSelector: in a volume the containerName is required (and the resource then unchecked). */
export function validateContainerResourceFieldSelector(
  errs: FieldError[],
  ref: JsonObject,
  path: FieldPath,
  volume: boolean,
): void {
  const containerName = readString(errs, path.child('containerName'), ref.containerName);
  const resource = readString(errs, path.child('resource'), ref.resource);
  if (resource === WRONG_TYPE || containerName === WRONG_TYPE) return;
  if (volume && !containerName) errs.push(required(path.child('containerName')));
  else if (!resource) errs.push(required(path.child('resource')));
  else if (
    !RESOURCE_FIELD_PATHS.includes(resource) &&
    !RESOURCE_FIELD_PREFIXES.some((prefix) => resource.startsWith(prefix))
  ) {
    errs.push(notSupported(path.child('resource'), resource, RESOURCE_FIELD_PATHS));
  }
  validateDivisor(errs, resource ?? '', ref.divisor, path);
}

function validateResourceFieldRef(errs: FieldError[], ref: JsonObject, path: FieldPath): void {
  validateContainerResourceFieldSelector(errs, ref, path, false);
}

/** validateConfigMapKeySelector / validateSecretKeySelector (identical rules). */
function validateKeySelector(errs: FieldError[], ref: JsonObject, path: FieldPath): void {
  const name = readString(errs, path.child('name'), ref.name);
  if (name !== WRONG_TYPE)
    for (const msg of isDNS1123Subdomain(name ?? '')) errs.push(invalidValue(path.child('name'), name ?? '', msg));
  const key = readString(errs, path.child('key'), ref.key);
  if (key === WRONG_TYPE) return;
  if (!key) errs.push(required(path.child('key')));
  else for (const msg of isConfigMapKey(key)) errs.push(invalidValue(path.child('key'), key, msg));
}

const VALUE_FROM_SOURCES: [string, (errs: FieldError[], ref: JsonObject, path: FieldPath) => void][] = [
  ['fieldRef', validateFieldRef],
  ['resourceFieldRef', validateResourceFieldRef],
  ['configMapKeyRef', validateKeySelector],
  ['secretKeyRef', validateKeySelector],
];

function validateValueFrom(errs: FieldError[], ev: JsonObject, path: FieldPath): void {
  const valueFrom = readObject(errs, path, ev.valueFrom);
  if (valueFrom === undefined || valueFrom === WRONG_TYPE) return;
  let sources = 0;
  for (const [key, check] of VALUE_FROM_SOURCES) {
    const source = readObject(errs, path.child(key), valueFrom[key]);
    if (source === WRONG_TYPE || source === undefined) continue;
    sources++;
    check(errs, source, path.child(key));
  }
  if (sources === 0)
    errs.push(
      invalidValue(
        path,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  else if (typeof ev.value === 'string' && ev.value !== '')
    errs.push(invalidValue(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(invalidValue(path, '', 'may not have more than one field specified at a time'));
}

/** ValidateEnv */
export function validateEnv(errs: FieldError[], value: unknown, path: FieldPath): void {
  const env = readObjectList(errs, path, value);
  if (!Array.isArray(env)) return;
  env.forEach((ev, i) => {
    if (ev === WRONG_TYPE) return;
    const p = path.index(i);
    const name = readString(errs, p.child('name'), ev?.name);
    if (name !== WRONG_TYPE) {
      if (!name) errs.push(required(p.child('name')));
      else for (const msg of isEnvVarName(name)) errs.push(invalidValue(p.child('name'), name, msg));
    }
    if (ev !== undefined) validateValueFrom(errs, ev, p.child('valueFrom'));
  });
}

function validateEnvSourceName(errs: FieldError[], source: JsonObject, path: FieldPath): void {
  const name = readString(errs, path.child('name'), source.name);
  if (name === WRONG_TYPE) return;
  if (!name) errs.push(required(path.child('name')));
  else
    for (const msg of validateDNS1123SubdomainName(name, true)) errs.push(invalidValue(path.child('name'), name, msg));
}

/** ValidateEnvFrom: the source-count errors are reported at the list's path, as upstream. */
export function validateEnvFrom(errs: FieldError[], value: unknown, path: FieldPath): void {
  const list = readObjectList(errs, path, value);
  if (!Array.isArray(list)) return;
  list.forEach((ev, i) => {
    if (ev === WRONG_TYPE) return;
    const p = path.index(i);
    const prefix = readString(errs, p.child('prefix'), ev?.prefix);
    if (typeof prefix === 'string' && prefix !== '')
      for (const msg of isEnvVarName(prefix)) errs.push(invalidValue(p.child('prefix'), prefix, msg));
    let sources = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const source = readObject(errs, p.child(key), ev?.[key]);
      if (source === WRONG_TYPE || isAbsent(source)) continue;
      sources++;
      validateEnvSourceName(errs, source, p.child(key));
    }
    if (sources === 0) errs.push(invalidValue(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(invalidValue(path, '', 'may not have more than one field specified at a time'));
  });
}
