// HorizontalPodAutoscaler spec.metrics validation on the autoscaling/v2 (internal) shape, with pkg/apis/autoscaling/validation's 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, goLiteral, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isDNS1123Label, isValidPathSegmentName } from '../../apimachinery/validation/names';
import type { JsonObject, Read } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  isAbsent,
  readInt32,
  readObject,
  readObjectList,
  readString,
  shownValue,
} from '../../apimachinery/validation/untrusted-json';
import { QUANTITY_FORMAT_ERROR, parseQuantity } from '../core/validation-resources';

/** validMetricSourceTypesList: sorted, as sets.String lists them. */
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** The source member of each type, in the order validateMetricSpec looks at them. */
const SOURCE_MEMBERS: ReadonlyArray<[member: string, type: string]> = [
  ['object', 'Object'],
  ['external', 'External'],
  ['pods', 'Pods'],
  ['resource', 'Resource'],
  ['containerResource', 'ContainerResource'],
];
const TARGET_TYPES = new Set(['Utilization', 'Value', 'AverageValue']);
const SCALE_TO_ZERO_NEEDS_METRIC =
  'must specify at least one Object or External metric to support scaling to zero replicas';
const NEEDS_SOURCE = 'must populate information for the given metric source';
const NEEDS_SOURCE_GATED = `${NEEDS_SOURCE} (only allowed when HPAContainerMetrics feature is enabled)`;

export interface MetricsValidationOptions {
  /** Feature gate HPAContainerMetrics (alpha, off in 1.26): only changes the missing-source text. */
  hpaContainerMetrics: boolean;
}

/** ValidateCrossVersionObjectReference: kind and name required and path segments; apiVersion is not checked in 1.26. */
export function validateCrossVersionObjectReference(errs: FieldError[], value: unknown, path: FieldPath): void {
  const ref = readObject(errs, path, value);
  if (ref === WRONG_TYPE) return;
  for (const key of ['kind', 'name']) {
    const s = readString(errs, path.child(key), ref?.[key]);
    if (s === WRONG_TYPE) continue;
    if (!s) errs.push(required(path.child(key)));
    else for (const msg of isValidPathSegmentName(s)) errs.push(invalidValue(path.child(key), s, msg));
  }
  readString(errs, path.child('apiVersion'), ref?.apiVersion);
}

/** A Quantity field: its numeric value, undefined when absent, WRONG_TYPE (reported) when it does not parse. */
function readQuantity(errs: FieldError[], path: FieldPath, value: unknown): Read<{ text: string; value: number }> {
  if (isAbsent(value)) return undefined;
  const q = parseQuantity(value);
  if (q !== undefined) return q;
  errs.push(invalidValue(path, shownValue(value), QUANTITY_FORMAT_ERROR));
  return WRONG_TYPE;
}

/** The MetricTarget members validation looks at; each is `undefined` when absent (Go nil). */
interface Target {
  value: Read<unknown>;
  averageValue: Read<unknown>;
  averageUtilization: Read<number>;
}

/** validateMetricTarget; `target` is a struct upstream, so an absent one is validated as its zero value. */
function validateMetricTarget(errs: FieldError[], value: unknown, path: FieldPath): Target {
  const target = readObject(errs, path, value);
  const t: JsonObject = target === WRONG_TYPE || target === undefined ? {} : target;
  const type = readString(errs, path.child('type'), t.type);
  if (type !== WRONG_TYPE) {
    if (!type) errs.push(required(path.child('type'), 'must specify a metric target type'));
    if (!TARGET_TYPES.has(type ?? ''))
      errs.push(invalidValue(path.child('type'), type ?? '', 'must be either Utilization, Value, or AverageValue'));
  }
  const out: Target = { value: undefined, averageValue: undefined, averageUtilization: undefined };
  for (const key of ['value', 'averageValue'] as const) {
    const q = readQuantity(errs, path.child(key), t[key]);
    out[key] = q;
    if (q !== WRONG_TYPE && q !== undefined && !(q.value > 0))
      errs.push(invalidValue(path.child(key), goLiteral(q.text), 'must be positive'));
  }
  const utilization = readInt32(errs, path.child('averageUtilization'), t.averageUtilization);
  out.averageUtilization = utilization;
  if (typeof utilization === 'number' && utilization < 1)
    errs.push(invalidValue(path.child('averageUtilization'), utilization, 'must be greater than 0'));
  return out;
}

/** validateMetricIdentifier: a name that is a valid path segment (the selector is not checked). */
function validateMetricIdentifier(errs: FieldError[], value: unknown, path: FieldPath): void {
  const id = readObject(errs, path, value);
  const name = readString(errs, path.child('name'), id === WRONG_TYPE ? undefined : id?.name);
  if (name === WRONG_TYPE) return;
  if (!name) errs.push(required(path.child('name'), 'must specify a metric name'));
  else for (const msg of isValidPathSegmentName(name)) errs.push(invalidValue(path.child('name'), name, msg));
}

const isSet = (v: unknown): boolean => v !== undefined;

function validateObjectSource(errs: FieldError[], src: JsonObject, path: FieldPath): void {
  validateCrossVersionObjectReference(errs, src.describedObject, path.child('describedObject'));
  validateMetricIdentifier(errs, src.metric, path.child('metric'));
  const t = validateMetricTarget(errs, src.target, path.child('target'));
  if (!isSet(t.value) && !isSet(t.averageValue))
    errs.push(required(path.child('target', 'averageValue'), 'must set either a target value or averageValue'));
}

function validateExternalSource(errs: FieldError[], src: JsonObject, path: FieldPath): void {
  validateMetricIdentifier(errs, src.metric, path.child('metric'));
  const t = validateMetricTarget(errs, src.target, path.child('target'));
  if (!isSet(t.value) && !isSet(t.averageValue)) {
    errs.push(
      required(path.child('target', 'averageValue'), 'must set either a target value for metric or a per-pod target'),
    );
  }
  if (isSet(t.value) && isSet(t.averageValue)) {
    errs.push(
      forbiddenField(path.child('target', 'value'), 'may not set both a target value for metric and a per-pod target'),
    );
  }
}

function validatePodsSource(errs: FieldError[], src: JsonObject, path: FieldPath): void {
  validateMetricIdentifier(errs, src.metric, path.child('metric'));
  const t = validateMetricTarget(errs, src.target, path.child('target'));
  if (!isSet(t.averageValue))
    errs.push(required(path.child('target', 'averageValue'), 'must specify a positive target averageValue'));
}

/** The target rules Resource and ContainerResource share: exactly one of averageUtilization and averageValue. */
function validateResourceTarget(errs: FieldError[], value: unknown, path: FieldPath): void {
  const t = validateMetricTarget(errs, value, path);
  if (!isSet(t.averageUtilization) && !isSet(t.averageValue)) {
    errs.push(required(path.child('averageUtilization'), 'must set either a target raw value or a target utilization'));
  }
  if (isSet(t.averageUtilization) && isSet(t.averageValue)) {
    errs.push(
      forbiddenField(path.child('averageValue'), 'may not set both a target raw value and a target utilization'),
    );
  }
}

function validateResourceSource(errs: FieldError[], src: JsonObject, path: FieldPath): void {
  const name = readString(errs, path.child('name'), src.name);
  if (name !== WRONG_TYPE && !name) errs.push(required(path.child('name'), 'must specify a resource name'));
  validateResourceTarget(errs, src.target, path.child('target'));
}

/**
 * validateContainerResourceSource. Only reachable with HPAContainerMetrics on (the strategy drops the member
 * otherwise); the resource name's ValidateContainerResourceName rules are not repeated here.
 */
function validateContainerResourceSource(errs: FieldError[], src: JsonObject, path: FieldPath): void {
  const name = readString(errs, path.child('name'), src.name);
  if (name !== WRONG_TYPE && !name) errs.push(required(path.child('name'), 'must specify a resource name'));
  const container = readString(errs, path.child('container'), src.container);
  if (typeof container === 'string' && container !== '') {
    for (const msg of isDNS1123Label(container)) errs.push(invalidValue(path.child('container'), container, msg));
  } else if (container !== WRONG_TYPE) errs.push(required(path.child('container'), 'must specify a container'));
  validateResourceTarget(errs, src.target, path.child('target'));
}

const SOURCE_VALIDATORS: Readonly<Record<string, (errs: FieldError[], src: JsonObject, path: FieldPath) => void>> = {
  object: validateObjectSource,
  external: validateExternalSource,
  pods: validatePodsSource,
  resource: validateResourceSource,
  containerResource: validateContainerResourceSource,
};

/** validateMetricSpec: a known type, its member present and valid (only the first present member is checked), no other member. */
function validateMetricSpec(
  errs: FieldError[],
  spec: JsonObject,
  path: FieldPath,
  options: MetricsValidationOptions,
): void {
  const type = readString(errs, path.child('type'), spec.type);
  if (type === WRONG_TYPE) return;
  if (!type) errs.push(required(path.child('type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type ?? ''))
    errs.push(notSupported(path.child('type'), type ?? '', METRIC_SOURCE_TYPES));
  const present: string[] = [];
  for (const [member] of SOURCE_MEMBERS) {
    const src = readObject(errs, path.child(member), spec[member]);
    if (src === undefined || src === WRONG_TYPE) continue;
    present.push(member);
    if (present.length === 1) SOURCE_VALIDATORS[member]?.(errs, src, path.child(member));
  }
  const expected = SOURCE_MEMBERS.find(([, t]) => t === type)?.[0];
  if (expected === undefined) errs.push(notSupported(path.child('type'), type ?? '', METRIC_SOURCE_TYPES));
  else if (!present.includes(expected)) {
    errs.push(
      required(
        path.child(expected),
        expected === 'containerResource' && !options.hpaContainerMetrics ? NEEDS_SOURCE_GATED : NEEDS_SOURCE,
      ),
    );
  }
  if (present.length > 1) {
    // Go ranges over a set here (random order); sorted keeps the answer stable.
    for (const member of present.filter((m) => m !== expected).sort())
      errs.push(forbiddenField(path.child(member), 'must populate the given metric source only'));
  }
}

/** validateMetrics, including the scale-to-zero rule: minReplicas 0 needs an Object or External metric. */
export function validateMetrics(
  errs: FieldError[],
  value: unknown,
  path: FieldPath,
  minReplicas: number | undefined,
  options: MetricsValidationOptions,
): void {
  const metrics = readObjectList(errs, path, value);
  const list = Array.isArray(metrics) ? metrics : [];
  let scalesToZero = false;
  list.forEach((metric, i) => {
    if (metric === WRONG_TYPE || metric === undefined) return;
    validateMetricSpec(errs, metric, path.index(i), options);
    if (metric.type === 'Object' || metric.type === 'External') scalesToZero = true;
  });
  if (minReplicas === 0 && !scalesToZero) errs.push(forbiddenField(path, SCALE_TO_ZERO_NEEDS_METRIC));
}
