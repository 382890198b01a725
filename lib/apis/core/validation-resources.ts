// Container resource requirements (limits/requests) with pkg/apis/core/validation's 1.26 texts, and Quantity reading.
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, invalidValue, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isQualifiedName } from '../../apimachinery/validation/names';
import { WRONG_TYPE, isAbsent, readObject, shownValue } from '../../apimachinery/validation/untrusted-json';
import { sortStrings } from '../../apimachinery/sort-strings';

/** resource.ErrFormatWrong: Kubernetes fails the decode with this text; we report it as a field error. */
export const QUANTITY_FORMAT_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const QUANTITY_RE = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;
const SUFFIX_MULTIPLIER: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A decoded resource.Quantity: its text (as sent; canonicalisation is the serializer's) and numeric value. */
export interface Quantity {
  text: string;
  value: number;
}

/** resource.ParseQuantity for sign and comparisons; a JSON number is accepted as Kubernetes does. */
export function parseQuantity(raw: unknown): Quantity | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? { text: String(raw), value: raw } : undefined;
  if (typeof raw !== 'string') return undefined;
  const m = QUANTITY_RE.exec(raw);
  if (m === null) return undefined;
  const suffix = m[2] ?? '';
  const multiplier = /^[eE]/.test(suffix) ? 10 ** Number(suffix.slice(1)) : SUFFIX_MULTIPLIER[suffix];
  if (multiplier === undefined) return undefined;
  return { text: raw, value: Number(m[1]) * multiplier };
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
// helper.IsStandardResourceName's set (quota and container names) in 1.26.
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
  'requests.storage',
]);
const HUGEPAGES_PREFIX = 'hugepages-';
const REQUESTS_PREFIX = 'requests.';
const NATIVE_DOMAIN = 'kubernetes.io/';

const isHugePages = (name: string): boolean => name.startsWith(HUGEPAGES_PREFIX);
const isNative = (name: string): boolean => !name.includes('/') || name.includes(NATIVE_DOMAIN);
const isOvercommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);
const isExtended = (name: string): boolean =>
  !isNative(name) && !name.startsWith(REQUESTS_PREFIX) && isQualifiedName(`${REQUESTS_PREFIX}${name}`).length === 0;

function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalidValue(path, name, msg));
  if (errs.length > 0) return errs;
  if (!name.includes('/')) {
    if (
      !STANDARD_RESOURCES.has(name) &&
      !isHugePages(name) &&
      !name.startsWith(`${REQUESTS_PREFIX}${HUGEPAGES_PREFIX}`)
    ) {
      errs.push(invalidValue(path, name, 'must be a standard resource type or fully qualified'));
    }
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name))
      errs.push(invalidValue(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    errs.push(invalidValue(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

function validateQuantityValue(name: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.value < 0) errs.push(invalidValue(path, q.text, 'must be greater than or equal to 0'));
  // Extended resources are integers (helper.IsIntegerResourceName); compared in milli-units as upstream.
  if (isExtended(name) && Math.round(q.value * 1000) % 1000 !== 0)
    errs.push(invalidValue(path, q.text, 'must be an integer'));
  return errs;
}

/** A ResourceList: name → quantity, names in sorted order; bad quantities are reported and left out. */
function readResourceList(errs: FieldError[], path: FieldPath, value: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  const list = readObject(errs, path, value);
  if (list === undefined || list === WRONG_TYPE) return out;
  for (const name of sortStrings(Object.keys(list))) {
    const raw = list[name];
    if (isAbsent(raw)) continue;
    const q = parseQuantity(raw);
    if (q === undefined) errs.push(invalidValue(path.key(name), shownValue(raw), QUANTITY_FORMAT_ERROR));
    else out.set(name, q);
  }
  return out;
}

/** ValidateResourceRequirements (container `resources`). */
export function validateResourceRequirements(value: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const resources = readObject(errs, path, value);
  if (resources === undefined || resources === WRONG_TYPE) return errs;
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = readResourceList(errs, limPath, resources.limits);
  const requests = readResourceList(errs, reqPath, resources.requests);
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, q] of limits) {
    errs.push(
      ...validateContainerResourceName(name, limPath.key(name)),
      ...validateQuantityValue(name, q, limPath.key(name)),
    );
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, q] of requests) {
    errs.push(
      ...validateContainerResourceName(name, reqPath.key(name)),
      ...validateQuantityValue(name, q, reqPath.key(name)),
    );
    const limit = limits.get(name);
    if (limit !== undefined) {
      // Upstream reports both at the `requests` path itself, not at the resource key.
      if (q.value !== limit.value && !isOvercommitAllowed(name))
        errs.push(invalidValue(reqPath, q.text, `must be equal to ${name} limit`));
      else if (q.value > limit.value)
        errs.push(invalidValue(reqPath, q.text, `must be less than or equal to ${name} limit`));
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (hugePages && !cpuOrMemory) errs.push(forbiddenField(path, 'HugePages require cpu or memory'));
  return errs;
}
