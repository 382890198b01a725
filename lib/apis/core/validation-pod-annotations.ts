// The pod-specific template annotations (ValidatePodSpecificAnnotations): mirror pod, deletion cost, seccomp and
// AppArmor profiles, and seccomp annotations agreeing with the seccompProfile fields, with pkg/apis/core/validation's 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, goQuote, invalidValue } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isPlainObject } from '../../apimachinery/meta/types';
import { objectAt, objectsAt, stringAt } from '../../apimachinery/validation/untrusted-json';
import { validateLocalDescendingPath } from './validation-paths';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
const APPARMOR_CONTAINER_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const LOCALHOST_PREFIX = 'localhost/';

/** ValidateSeccompProfile: an annotation's profile name. */
function validateSeccompAnnotation(errs: FieldError[], profile: string, path: FieldPath): void {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return;
  if (profile.startsWith(LOCALHOST_PREFIX))
    validateLocalDescendingPath(errs, profile.slice(LOCALHOST_PREFIX.length), path);
  else errs.push(invalidValue(path, profile, 'must be a valid seccomp profile'));
}

function templateHasContainer(spec: unknown, name: string): boolean {
  return ['containers', 'initContainers', 'ephemeralContainers'].some((key) =>
    objectsAt(spec, key).some((c) => c.name === name),
  );
}

/** GetDeletionCostFromPodAnnotations: a decimal int32, without `+` or leading zeros (a negative may have them). */
function isDeletionCost(value: string): boolean {
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -(2 ** 31) && n <= 2 ** 31 - 1;
}

/**
 * ValidatePodSpecificAnnotations (1.26, without the legacy tolerations annotation): the mirror-pod annotation needs
 * a nodeName, the deletion cost must be an int32, seccomp annotations name valid profiles (reported at
 * `annotations.<key>`), AppArmor ones a container of the template and a valid profile (at `annotations[<key>]`).
 */
export function validatePodSpecificAnnotations(
  errs: FieldError[],
  annotations: unknown,
  spec: unknown,
  path: FieldPath,
): void {
  if (!isPlainObject(annotations)) return;
  const mirror = annotations[MIRROR_POD_ANNOTATION];
  if (typeof mirror === 'string' && stringAt(spec, 'nodeName') === '') {
    errs.push(
      invalidValue(path.key(MIRROR_POD_ANNOTATION), mirror, 'must set spec.nodeName if mirror pod annotation is set'),
    );
  }
  const cost = annotations[DELETION_COST_ANNOTATION];
  if (typeof cost === 'string' && !isDeletionCost(cost))
    errs.push(invalidValue(path.key(DELETION_COST_ANNOTATION), cost, 'must be a 32bit integer'));
  const pod = annotations[SECCOMP_POD_ANNOTATION];
  if (typeof pod === 'string') validateSeccompAnnotation(errs, pod, path.child(SECCOMP_POD_ANNOTATION));
  for (const [key, profile] of Object.entries(annotations)) {
    if (typeof profile !== 'string') continue;
    if (key.startsWith(SECCOMP_CONTAINER_PREFIX)) validateSeccompAnnotation(errs, profile, path.child(key));
  }
  for (const [key, profile] of Object.entries(annotations)) {
    if (typeof profile !== 'string' || !key.startsWith(APPARMOR_CONTAINER_PREFIX)) continue;
    const container = key.slice(APPARMOR_CONTAINER_PREFIX.length);
    if (!templateHasContainer(spec, container))
      errs.push(invalidValue(path.key(key), container, 'container not found'));
    const valid =
      profile === '' ||
      profile === 'runtime/default' ||
      profile === 'unconfined' ||
      profile.startsWith(LOCALHOST_PREFIX);
    if (!valid) errs.push(invalidValue(path.key(key), profile, `invalid AppArmor profile name: ${goQuote(profile)}`));
  }
}

/** validateSeccompAnnotationsAndFieldsMatch: the annotation must name the profile the field sets. */
function seccompMismatch(errs: FieldError[], annotation: string, profile: unknown, path: FieldPath): void {
  if (!isPlainObject(profile)) return;
  const type = stringAt(profile, 'type');
  const typeMismatch = forbiddenField(path.child('type'), 'seccomp type in annotation and field must match');
  if (type === 'Unconfined' && annotation !== 'unconfined') errs.push(typeMismatch);
  else if (type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default')
    errs.push(typeMismatch);
  else if (type === 'Localhost') {
    if (!annotation.startsWith(LOCALHOST_PREFIX)) errs.push(typeMismatch);
    else if (
      typeof profile.localhostProfile !== 'string' ||
      annotation.slice(LOCALHOST_PREFIX.length) !== profile.localhostProfile
    ) {
      errs.push(forbiddenField(path.child('localhostProfile'), 'seccomp profile in annotation and field must match'));
    }
  }
}

/**
 * validateSeccompAnnotationsAndFields: where a seccomp annotation and a seccompProfile field are both set (pod, or a
 * container: init containers, containers, ephemeral containers in that order), they must agree.
 */
export function validateSeccompAnnotationsAndFields(
  errs: FieldError[],
  annotations: unknown,
  spec: unknown,
  specPath: FieldPath,
): void {
  if (!isPlainObject(annotations)) return;
  const pod = annotations[SECCOMP_POD_ANNOTATION];
  const podProfile = objectAt(objectAt(spec, 'securityContext'), 'seccompProfile');
  if (typeof pod === 'string' && podProfile !== undefined)
    seccompMismatch(errs, pod, podProfile, specPath.child('securityContext', 'seccompProfile'));
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    objectsAt(spec, key).forEach((ctr, i) => {
      const profile = objectAt(objectAt(ctr, 'securityContext'), 'seccompProfile');
      const annotation = annotations[`${SECCOMP_CONTAINER_PREFIX}${stringAt(ctr, 'name')}`];
      if (profile !== undefined && typeof annotation === 'string')
        seccompMismatch(
          errs,
          annotation,
          profile,
          specPath.child(key).index(i).child('securityContext', 'seccompProfile'),
        );
    });
  }
}
