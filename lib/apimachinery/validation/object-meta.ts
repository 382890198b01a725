// ObjectMeta validation on create and update (k8s.io/apimachinery/pkg/api/validation/objectmeta.go texts).
import type { ObjectMeta, OwnerReference } from '../meta/types';
import { isPlainObject } from '../meta/types';
import type { FieldError } from '../field/errors';
import { forbiddenField, goLiteral, goQuote, invalidValue, required, tooLong } from '../field/errors';
import { goStringSliceText } from './untrusted-json';
import { FieldPath } from '../field/path';
import type { NameValidator } from './names';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from './names';
import { sortStrings } from '../sort-strings';

export const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;
const FINALIZER_ORPHAN = 'orphan';
const FINALIZER_FOREGROUND = 'foregroundDeletion';

const metadataPath = FieldPath.root('metadata');

function validateStringMap(
  value: unknown,
  path: FieldPath,
  /** Pushes the errors of one entry onto `errs` (no arrays of its own per entry). */
  check: (k: string, v: string, errs: FieldError[]) => void,
): FieldError[] {
  if (value === undefined || value === null) return [];
  if (!isPlainObject(value))
    return [invalidValue(path, goLiteral(JSON.stringify(value)), 'must be a map of string keys to string values')];
  const errs: FieldError[] = [];
  for (const k of sortStrings(Object.keys(value))) {
    const v = value[k];
    if (typeof v !== 'string') errs.push(invalidValue(path.key(k), goLiteral(JSON.stringify(v)), 'must be a string'));
    else check(k, v, errs);
  }
  return errs;
}

export function validateLabels(labels: unknown, path: FieldPath): FieldError[] {
  return validateStringMap(labels, path, (k, v, errs) => {
    for (const msg of isQualifiedName(k)) errs.push(invalidValue(path, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalidValue(path, v, msg));
  });
}

export function validateAnnotations(annotations: unknown, path: FieldPath): FieldError[] {
  const errs = validateStringMap(annotations, path, (k, _v, out) => {
    for (const msg of isQualifiedName(k.toLowerCase())) out.push(invalidValue(path, k, msg));
  });
  if (isPlainObject(annotations)) {
    let total = 0;
    for (const [k, v] of Object.entries(annotations))
      total += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  }
  return errs;
}

export function validateFinalizers(finalizers: unknown, path: FieldPath): FieldError[] {
  if (finalizers === undefined || finalizers === null) return [];
  if (!Array.isArray(finalizers))
    return [invalidValue(path, goLiteral(JSON.stringify(finalizers)), 'must be a list of strings')];
  const errs: FieldError[] = [];
  finalizers.forEach((f: unknown, i) => {
    if (typeof f !== 'string') errs.push(invalidValue(path.index(i), goLiteral(JSON.stringify(f)), 'must be a string'));
    else errs.push(...isQualifiedName(f).map((msg) => invalidValue(path, f, msg)));
  });
  if (finalizers.includes(FINALIZER_ORPHAN) && finalizers.includes(FINALIZER_FOREGROUND)) {
    errs.push(
      invalidValue(
        path,
        goLiteral(goStringSliceText(finalizers.filter((f): f is string => typeof f === 'string'))),
        `finalizer ${FINALIZER_ORPHAN} and ${FINALIZER_FOREGROUND} cannot be both set`,
      ),
    );
  }
  return errs;
}

/** Go's `%#v` of a *bool (the address is whatever Go's allocator gave; any stands for it). */
function goBoolPointer(value: boolean | undefined): string {
  return value === undefined ? '(*bool)(nil)' : '(*bool)(0xc000010000)';
}

/** Go's `%#v` of a v1.OwnerReference. */
function goOwnerReference(ref: OwnerReference): string {
  const fields = [
    `APIVersion:${goQuote(ref.apiVersion ?? '')}`,
    `Kind:${goQuote(ref.kind ?? '')}`,
    `Name:${goQuote(ref.name ?? '')}`,
    `UID:${goQuote(ref.uid ?? '')}`,
    `Controller:${goBoolPointer(ref.controller)}`,
    `BlockOwnerDeletion:${goBoolPointer(ref.blockOwnerDeletion)}`,
  ];
  return `v1.OwnerReference{${fields.join(', ')}}`;
}

/** ValidateOwnerReferences: every reference names a version, kind, name and uid; at most one is the controller. */
export function validateOwnerReferences(refs: readonly OwnerReference[] | undefined, path: FieldPath): FieldError[] {
  if (!Array.isArray(refs)) return [];
  const errs: FieldError[] = [];
  let firstController: string | undefined;
  for (const ref of refs) {
    const apiVersion = ref.apiVersion ?? '';
    // schema.FromAPIVersionAndKind: the version is what follows the last `/`, or the whole value without one.
    if (apiVersion.slice(apiVersion.lastIndexOf('/') + 1) === '')
      errs.push(invalidValue(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (!ref.kind) errs.push(invalidValue(path.child('kind'), ref.kind ?? '', 'kind must not be empty'));
    if (!ref.name) errs.push(invalidValue(path.child('name'), ref.name ?? '', 'name must not be empty'));
    if (!ref.uid) errs.push(invalidValue(path.child('uid'), ref.uid ?? '', 'uid must not be empty'));
    // BannedOwners: core v1 Events.
    if (apiVersion === 'v1' && ref.kind === 'Event')
      errs.push(
        invalidValue(path, goLiteral(goOwnerReference(ref)), '/v1, Kind=Event is disallowed from being an owner'),
      );
    if (ref.controller !== true) continue;
    const controller = `${ref.kind ?? ''}/${ref.name ?? ''}`;
    if (firstController === undefined) firstController = controller;
    else
      errs.push(
        invalidValue(
          path,
          goLiteral(`[]v1.OwnerReference{${refs.map(goOwnerReference).join(', ')}}`),
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${controller}`,
        ),
      );
  }
  return errs;
}

/** ValidateObjectMeta: name or generateName, namespace by scope, generation, labels, annotations, finalizers. */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, validateName: NameValidator): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of validateName(meta.generateName, true))
      errs.push(invalidValue(metadataPath.child('generateName'), meta.generateName, msg));
  }
  if (!meta.name) errs.push(required(metadataPath.child('name'), 'name or generateName is required'));
  else
    for (const msg of validateName(meta.name, false))
      errs.push(invalidValue(metadataPath.child('name'), meta.name, msg));
  if (namespaced) {
    if (!meta.namespace) errs.push(required(metadataPath.child('namespace')));
    else
      for (const msg of isDNS1123Label(meta.namespace))
        errs.push(invalidValue(metadataPath.child('namespace'), meta.namespace, msg));
  } else if (meta.namespace) {
    errs.push(forbiddenField(metadataPath.child('namespace'), 'not allowed on this type'));
  }
  if (typeof meta.generation === 'number' && meta.generation < 0) {
    errs.push(invalidValue(metadataPath.child('generation'), meta.generation, 'must be greater than or equal to 0'));
  }
  errs.push(...validateLabels(meta.labels, metadataPath.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, metadataPath.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, metadataPath.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, metadataPath.child('finalizers')));
  return errs;
}

function immutable<T extends string | number | null | undefined>(next: T, prev: T, field: string): FieldError[] {
  if ((next ?? undefined) === (prev ?? undefined)) return [];
  return [invalidValue(metadataPath.child(field), next ?? null, 'field is immutable')];
}

/** ValidateObjectMetaUpdate: identity fields immutable, no new finalizers while terminating. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta): FieldError[] {
  const errs: FieldError[] = [];
  if (old.deletionTimestamp) {
    const added = (meta.finalizers ?? []).filter((f) => !(old.finalizers ?? []).includes(f));
    if (added.length > 0) {
      errs.push(
        forbiddenField(
          metadataPath.child('finalizers'),
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSliceText([...new Set(added)].sort())}`,
        ),
      );
    }
  }
  if (!meta.resourceVersion)
    errs.push(invalidValue(metadataPath.child('resourceVersion'), goLiteral('0x0'), 'must be specified for an update'));
  if ((meta.generation ?? 0) < (old.generation ?? 0))
    errs.push(invalidValue(metadataPath.child('generation'), meta.generation ?? 0, 'must not be decremented'));
  errs.push(...immutable(meta.name, old.name, 'name'));
  errs.push(...immutable(meta.namespace, old.namespace, 'namespace'));
  errs.push(...immutable(meta.uid, old.uid, 'uid'));
  errs.push(...immutable(meta.creationTimestamp, old.creationTimestamp, 'creationTimestamp'));
  errs.push(...immutable(meta.deletionTimestamp, old.deletionTimestamp, 'deletionTimestamp'));
  errs.push(
    ...immutable(meta.deletionGracePeriodSeconds, old.deletionGracePeriodSeconds, 'deletionGracePeriodSeconds'),
  );
  errs.push(...validateLabels(meta.labels, metadataPath.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, metadataPath.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, metadataPath.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, metadataPath.child('finalizers')));
  return errs;
}
