// PodTemplateSpec/PodSpec validation (the subset workloads need) with pkg/apis/core/validation's 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, invalidValue, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/names';
import { validateAnnotations, validateLabels } from '../../apimachinery/validation/object-meta';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  readBoolean,
  readInt64,
  readList,
  readObject,
  readString,
} from '../../apimachinery/validation/untrusted-json';
import { validateContainers, validateEnum, validateInitContainers } from './validation-container';
import { validateAffinity, validateTopologySpreadConstraints } from './validation-affinity';
import { validatePodSecurityContext, validateTolerations } from './validation-pod-security';
import { validatePodSpecificAnnotations, validateSeccompAnnotationsAndFields } from './validation-pod-annotations';
import { validateVolumes } from './validation-volume';

/** Code order, not sorted: these lists are written out literally upstream. */
export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
export const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const DNS_NONE = 'None';
const MAX_INT32 = 2 ** 31 - 1;
const NON_NEGATIVE = 'must be greater than or equal to 0';

function validateOptionalName(
  errs: FieldError[],
  spec: JsonObject,
  key: string,
  path: FieldPath,
  check: (s: string) => string[],
): void {
  const value = readString(errs, path.child(key), spec[key]);
  if (typeof value === 'string' && value !== '')
    for (const msg of check(value)) errs.push(invalidValue(path.child(key), value, msg));
}

/** ValidatePodSpec (template subset): volumes, containers, policies, names, deadlines. */
export function validatePodSpec(spec: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const volumes = validateVolumes(errs, spec.volumes, path.child('volumes'));
  const names = validateContainers(errs, spec.containers, path.child('containers'), volumes);
  validateInitContainers(errs, spec.initContainers, path.child('initContainers'), volumes, names);
  validateEnum(errs, path.child('restartPolicy'), spec.restartPolicy, RESTART_POLICIES);
  const dnsPolicy = validateEnum(errs, path.child('dnsPolicy'), spec.dnsPolicy, DNS_POLICIES);
  errs.push(...validateLabels(spec.nodeSelector, path.child('nodeSelector')));
  validatePodSecurityContext(errs, spec, path);
  readList(errs, path.child('imagePullSecrets'), spec.imagePullSecrets);
  validateAffinity(errs, spec.affinity, path.child('affinity'));
  const dnsConfig = readObject(errs, path.child('dnsConfig'), spec.dnsConfig);
  if (dnsPolicy === DNS_NONE && dnsConfig === undefined)
    errs.push(required(path.child('dnsConfig'), `must provide \`dnsConfig\` when \`dnsPolicy\` is ${DNS_NONE}`));
  validateTopologySpreadConstraints(errs, spec.topologySpreadConstraints, path.child('topologySpreadConstraints'));
  for (const flag of ['hostNetwork', 'hostPID', 'hostIPC']) readBoolean(errs, path.child(flag), spec[flag]);
  validateOptionalName(errs, spec, 'serviceAccountName', path, isDNS1123Subdomain);
  validateOptionalName(errs, spec, 'nodeName', path, isDNS1123Subdomain);
  const deadline = readInt64(errs, path.child('activeDeadlineSeconds'), spec.activeDeadlineSeconds);
  if (typeof deadline === 'number' && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(
      invalidValue(path.child('activeDeadlineSeconds'), deadline, `must be between 1 and ${MAX_INT32}, inclusive`),
    );
  }
  validateOptionalName(errs, spec, 'hostname', path, isDNS1123Label);
  validateOptionalName(errs, spec, 'subdomain', path, isDNS1123Label);
  validateTolerations(errs, spec.tolerations, path.child('tolerations'));
  validateOptionalName(errs, spec, 'priorityClassName', path, isDNS1123Subdomain);
  const runtimeClassName = readString(errs, path.child('runtimeClassName'), spec.runtimeClassName);
  if (typeof runtimeClassName === 'string')
    for (const msg of isDNS1123Subdomain(runtimeClassName))
      errs.push(invalidValue(path.child('runtimeClassName'), runtimeClassName, msg));
  // Not a 1.26 PodSpec rule (pods clamp negatives to 1); the orch reference lists it as essential.
  const grace = readInt64(errs, path.child('terminationGracePeriodSeconds'), spec.terminationGracePeriodSeconds);
  if (typeof grace === 'number' && grace < 0)
    errs.push(invalidValue(path.child('terminationGracePeriodSeconds'), grace, NON_NEGATIVE));
  return errs;
}

/**
 * ValidatePodTemplateSpec: template labels and annotations (reported at `<path>.labels`, without
 * `metadata`, as upstream), the pod-specific annotations, the pod spec, and no ephemeral containers.
 */
export function validatePodTemplateSpec(template: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const metadata = readObject(errs, path.child('metadata'), template.metadata);
  const meta = metadata === WRONG_TYPE ? undefined : metadata;
  errs.push(...validateLabels(meta?.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta?.annotations, path.child('annotations')));
  const spec = readObject(errs, path.child('spec'), template.spec);
  if (spec === WRONG_TYPE) return errs;
  validatePodSpecificAnnotations(errs, meta?.annotations, spec, path.child('annotations'));
  errs.push(...validatePodSpec(spec ?? {}, path.child('spec')));
  validateSeccompAnnotationsAndFields(errs, meta?.annotations, spec, path.child('spec'));
  const ephemeral = spec?.ephemeralContainers;
  if (Array.isArray(ephemeral) && ephemeral.length > 0) {
    errs.push(
      forbiddenField(path.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'),
    );
  }
  return errs;
}
