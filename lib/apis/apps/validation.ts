// Deployment (apps/v1) validation: create, update (selector immutable) and status, with pkg/apis/apps/validation's texts.
import type { FieldError } from '../../apimachinery/field/errors';
import {
  forbiddenField,
  goLiteral,
  goQuote,
  invalidValue,
  notSupported,
  required,
} from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { regexError } from '../../apimachinery/validation/names';
import type { JsonObject, Read } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  goPointerText,
  isAbsent,
  readBoolean,
  readInt32,
  readInt64,
  readObject,
  readString,
  readStringMap,
} from '../../apimachinery/validation/untrusted-json';
import type { IntOrString } from '../core/go-values';
import { GO_NIL_VALUE, goStringMapText, intOrStringLiteral, readIntOrString } from '../core/go-values';
import { semanticEqual } from '../../apimachinery/validation/semantic-equal';
import { validateKubeFinalizerNames } from '../core/validation-object-meta';
import { validatePodTemplateSpec } from '../core/validation-pod-template';
import { validateReadOnlyPersistentDisks } from '../core/validation-volume';
import type { LabelSelector } from './label-selector';
import {
  labelSelectorAsSelector,
  labelSelectorLiteral,
  readLabelSelector,
  validateLabelSelector,
} from './label-selector';

const NON_NEGATIVE = 'must be greater than or equal to 0';
export const STRATEGY_TYPES = ['Recreate', 'RollingUpdate'];
const PERCENT_FMT = '[0-9]+%';
const PERCENT_ERROR = regexError(
  "a valid percent string must be a numeric string followed by an ending '%'",
  PERCENT_FMT,
  '1%',
  '93%',
);

const specPath = FieldPath.root('spec');
const selectorPath = specPath.child('selector');
const statusPath = FieldPath.root('status');

function nonNegative(errs: FieldError[], path: FieldPath, value: unknown, read = readInt32): number | undefined {
  const n = read(errs, path, value);
  if (n === WRONG_TYPE) return undefined;
  if (n !== undefined && n < 0) errs.push(invalidValue(path, n, NON_NEGATIVE));
  return n;
}

/** getPercentValue: the number of a valid `<n>%` string. */
function percentValue(v: IntOrString): number | undefined {
  return v.type === 1 && new RegExp(`^${PERCENT_FMT}$`).test(v.strVal) ? Number(v.strVal.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue: a non-percent string goes through IntValue(), i.e. strconv.Atoi (0 on error). */
function intOrPercentValue(v: IntOrString): number {
  if (v.type === 0) return v.intVal;
  return percentValue(v) ?? (/^[+-]?[0-9]+$/.test(v.strVal) ? Number(v.strVal) : 0);
}

/** ValidatePositiveIntOrPercent */
function validatePositiveIntOrPercent(errs: FieldError[], v: IntOrString, path: FieldPath): void {
  if (v.type === 1 && percentValue(v) === undefined)
    errs.push(invalidValue(path, intOrStringLiteral(v), PERCENT_ERROR));
  if (v.type === 0 && v.intVal < 0) errs.push(invalidValue(path, intOrStringLiteral(v), NON_NEGATIVE));
}

/** ValidateRollingUpdateDeployment; absent members are IntOrString's zero value, as in the internal type. */
function validateRollingUpdate(errs: FieldError[], rollingUpdate: JsonObject, path: FieldPath): void {
  const zero: IntOrString = { type: 0, intVal: 0 };
  const maxUnavailable = readIntOrString(errs, path.child('maxUnavailable'), rollingUpdate.maxUnavailable);
  const maxSurge = readIntOrString(errs, path.child('maxSurge'), rollingUpdate.maxSurge);
  if (maxUnavailable === WRONG_TYPE || maxSurge === WRONG_TYPE) return;
  const unavailable = maxUnavailable ?? zero;
  const surge = maxSurge ?? zero;
  validatePositiveIntOrPercent(errs, unavailable, path.child('maxUnavailable'));
  validatePositiveIntOrPercent(errs, surge, path.child('maxSurge'));
  if (intOrPercentValue(unavailable) === 0 && intOrPercentValue(surge) === 0) {
    errs.push(
      invalidValue(path.child('maxUnavailable'), intOrStringLiteral(unavailable), 'may not be 0 when `maxSurge` is 0'),
    );
  }
  const percent = percentValue(unavailable);
  if (percent !== undefined && percent > 100)
    errs.push(
      invalidValue(path.child('maxUnavailable'), intOrStringLiteral(unavailable), 'must not be greater than 100%'),
    );
}

/** ValidateDeploymentStrategy */
function validateStrategy(errs: FieldError[], value: unknown, path: FieldPath): void {
  const strategy = readObject(errs, path, value);
  if (strategy === WRONG_TYPE) return;
  const type = readString(errs, path.child('type'), strategy?.type);
  const rollingUpdate = readObject(errs, path.child('rollingUpdate'), strategy?.rollingUpdate);
  if (type === WRONG_TYPE || rollingUpdate === WRONG_TYPE) return;
  if (type === 'Recreate') {
    if (rollingUpdate !== undefined)
      errs.push(forbiddenField(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
  } else if (type === 'RollingUpdate') {
    if (rollingUpdate === undefined)
      errs.push(required(path.child('rollingUpdate'), 'this should be defaulted and never be nil'));
    else validateRollingUpdate(errs, rollingUpdate, path.child('rollingUpdate'));
  } else {
    const dump = `apps.DeploymentStrategy{Type:${goQuote(type ?? '')}, RollingUpdate:${goPointerText('apps.RollingUpdateDeployment', rollingUpdate === undefined)}}`;
    errs.push(notSupported(path, goLiteral(dump), STRATEGY_TYPES));
  }
}

/** The template's labels when they decode as a map (their type errors belong to the template checks). */
function templateLabels(template: JsonObject): Record<string, string> | undefined | typeof WRONG_TYPE {
  const metadata = template.metadata;
  if (!isPlainObject(metadata)) return isAbsent(metadata) ? undefined : WRONG_TYPE;
  return readStringMap([], specPath, metadata.labels);
}

/** ValidatePodTemplateSpecForReplicaSet: selector matches labels, template valid, ReplicaSet-only rules. */
function validateTemplate(
  errs: FieldError[],
  template: JsonObject,
  selector: Read<LabelSelector>,
  replicas: number,
  path: FieldPath,
): void {
  const converted = selector === WRONG_TYPE ? undefined : labelSelectorAsSelector(selector);
  const labels = templateLabels(template);
  if (converted !== undefined && !converted.isEmpty() && labels !== WRONG_TYPE && !converted.matches(labels)) {
    errs.push(
      invalidValue(
        path.child('metadata', 'labels'),
        goLiteral(goStringMapText(labels)),
        '`selector` does not match template `labels`',
      ),
    );
  }
  errs.push(...validatePodTemplateSpec(template, path));
  const spec = isPlainObject(template.spec) ? template.spec : {};
  if (replicas > 1) errs.push(...validateReadOnlyPersistentDisks(spec.volumes, path.child('spec', 'volumes')));
  const restartPolicy = spec.restartPolicy;
  if (restartPolicy !== 'Always' && (isAbsent(restartPolicy) || typeof restartPolicy === 'string')) {
    errs.push(
      notSupported(path.child('spec', 'restartPolicy'), typeof restartPolicy === 'string' ? restartPolicy : '', [
        'Always',
      ]),
    );
  }
  if (!isAbsent(spec.activeDeadlineSeconds))
    errs.push(
      forbiddenField(
        path.child('spec', 'activeDeadlineSeconds'),
        'activeDeadlineSeconds in ReplicaSet is not Supported',
      ),
    );
}

/** ValidateDeploymentSpec */
function validateDeploymentSpec(errs: FieldError[], value: unknown): void {
  const spec = readObject(errs, specPath, value);
  if (spec === WRONG_TYPE) return;
  const s = spec ?? {};
  const replicas = nonNegative(errs, specPath.child('replicas'), s.replicas) ?? 0;
  const selector = readLabelSelector(errs, selectorPath, s.selector);
  if (selector === undefined) errs.push(required(selectorPath));
  else if (selector !== WRONG_TYPE)
    errs.push(...validateLabelSelector(selector, selectorPath, 'empty selector is invalid for deployment'));
  const template = readObject(errs, specPath.child('template'), s.template);
  if (template !== WRONG_TYPE) {
    // A selector that cannot be converted stops the template checks, as upstream.
    if (selector !== undefined && selector !== WRONG_TYPE && labelSelectorAsSelector(selector) === undefined) {
      errs.push(invalidValue(selectorPath, labelSelectorLiteral(selector), 'invalid label selector'));
    } else {
      validateTemplate(errs, template ?? {}, selector, replicas, specPath.child('template'));
    }
  }
  validateStrategy(errs, s.strategy, specPath.child('strategy'));
  const minReadySeconds = nonNegative(errs, specPath.child('minReadySeconds'), s.minReadySeconds) ?? 0;
  nonNegative(errs, specPath.child('revisionHistoryLimit'), s.revisionHistoryLimit);
  const deadline = nonNegative(errs, specPath.child('progressDeadlineSeconds'), s.progressDeadlineSeconds);
  if (deadline !== undefined && deadline <= minReadySeconds) {
    errs.push(
      invalidValue(specPath.child('progressDeadlineSeconds'), deadline, 'must be greater than minReadySeconds'),
    );
  }
  readBoolean(errs, specPath.child('paused'), s.paused);
}

/** ValidateDeployment (kind part; ObjectMeta's generic rules are the store's). */
export function validateDeployment(obj: ApiObject): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  validateDeploymentSpec(errs, obj.spec);
  return errs;
}

/** The decoded `spec.selector` (its type errors are reported by the spec checks). */
function selectorOf(obj: ApiObject): Read<LabelSelector> {
  return readLabelSelector([], selectorPath, isPlainObject(obj.spec) ? obj.spec.selector : undefined);
}

/** ValidateDeploymentUpdate plus the strategy's apps/v1 rule: `spec.selector` is immutable. */
export function validateDeploymentUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateDeployment(obj);
  const next = selectorOf(obj);
  const prev = selectorOf(old);
  if (next !== WRONG_TYPE && prev !== WRONG_TYPE && !semanticEqual(next, prev)) {
    errs.push(
      invalidValue(selectorPath, next === undefined ? GO_NIL_VALUE : labelSelectorLiteral(next), 'field is immutable'),
    );
  }
  return errs;
}

const STATUS_COUNTERS = ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'];
const GREATER_THAN_REPLICAS = 'cannot be greater than status.replicas';

/** ValidateDeploymentStatusUpdate (kind part): counters, their ordering, collisionCount not decremented. */
export function validateDeploymentStatus(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  const status = readObject(errs, statusPath, obj.status);
  if (status === WRONG_TYPE) return errs;
  const s = status ?? {};
  nonNegative(errs, statusPath.child('observedGeneration'), s.observedGeneration, readInt64);
  const counts: Record<string, number> = {};
  for (const counter of STATUS_COUNTERS)
    counts[counter] = nonNegative(errs, statusPath.child(counter), s[counter]) ?? 0;
  const collisionCount = nonNegative(errs, statusPath.child('collisionCount'), s.collisionCount);
  const replicas = counts.replicas ?? 0;
  for (const counter of ['updatedReplicas', 'readyReplicas', 'availableReplicas']) {
    const n = counts[counter] ?? 0;
    if (n > replicas) errs.push(invalidValue(statusPath.child(counter), n, GREATER_THAN_REPLICAS));
  }
  if ((counts.availableReplicas ?? 0) > (counts.readyReplicas ?? 0)) {
    errs.push(
      invalidValue(
        statusPath.child('availableReplicas'),
        counts.availableReplicas ?? 0,
        'cannot be greater than readyReplicas',
      ),
    );
  }
  const oldCollisions = isPlainObject(old.status) ? old.status.collisionCount : undefined;
  // IsDecremented: only when the old value was set; unsetting it counts as a decrement (printed as 0).
  if (typeof oldCollisions === 'number' && (collisionCount === undefined || collisionCount < oldCollisions)) {
    errs.push(invalidValue(statusPath.child('collisionCount'), collisionCount ?? 0, 'cannot be decremented'));
  }
  return errs;
}
