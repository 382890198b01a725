// PodSpec host networking, pod securityContext ids and tolerations (ValidatePodSecurityContext, ValidateTolerations) with 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { goLiteral, goQuote, invalidValue, notSupported } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isQualifiedName, isValidLabelValue } from '../../apimachinery/validation/names';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  isAbsent,
  objectsAt,
  readList,
  readObject,
  readObjectList,
} from '../../apimachinery/validation/untrusted-json';
import { validateId, validateSeccompProfileField, validateWindowsOptions } from './validation-security-context';

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TOLERATION_OPERATORS = ['Equal', 'Exists'];

/** validateHostNetwork (1.26, before hostPort 0 was allowed in templates): each port's hostPort must equal its containerPort. */
function validateHostNetwork(errs: FieldError[], spec: JsonObject, path: FieldPath): void {
  if (spec.hostNetwork !== true) return;
  objectsAt(spec, 'containers').forEach((ctr, i) => {
    objectsAt(ctr, 'ports').forEach((port, j) => {
      const containerPort = typeof port.containerPort === 'number' ? port.containerPort : 0;
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      if (hostPort !== containerPort) {
        errs.push(
          invalidValue(
            path.index(i).child('ports').index(j).child('containerPort'),
            containerPort,
            'must match `hostPort` when `hostNetwork` is true',
          ),
        );
      }
    });
  });
}

/** ValidatePodSecurityContext: host networking (checked on the containers), ids, shareProcessNamespace with hostPID, seccomp, Windows options. */
export function validatePodSecurityContext(errs: FieldError[], spec: JsonObject, specPath: FieldPath): void {
  const path = specPath.child('securityContext');
  const sc = readObject(errs, path, spec.securityContext);
  if (sc === WRONG_TYPE) return;
  validateHostNetwork(errs, spec, specPath.child('containers'));
  if (sc === undefined) return;
  validateId(errs, sc.fsGroup, path.child('fsGroup'));
  validateId(errs, sc.runAsUser, path.child('runAsUser'));
  validateId(errs, sc.runAsGroup, path.child('runAsGroup'));
  const groups = readList(errs, path.child('supplementalGroups'), sc.supplementalGroups);
  if (Array.isArray(groups))
    groups.forEach((gid, g) => validateId(errs, gid, path.child('supplementalGroups').index(g)));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(
      invalidValue(
        path.child('shareProcessNamespace'),
        true,
        'ShareProcessNamespace and HostPID cannot both be enabled',
      ),
    );
  }
  validateSeccompProfileField(errs, sc.seccompProfile, path.child('seccompProfile'));
  validateWindowsOptions(errs, sc.windowsOptions, path.child('windowsOptions'));
}

/** The `%#v` of a core.Toleration, as the Exists-with-value error prints it (a set pointer's address is not reproducible). */
function tolerationLiteral(t: JsonObject): string {
  const str = (v: unknown): string => goQuote(typeof v === 'string' ? v : '');
  const seconds = isAbsent(t.tolerationSeconds) ? '(*int64)(nil)' : '(*int64)(0xc000000000)';
  return `core.Toleration{Key:${str(t.key)}, Operator:${str(t.operator)}, Value:${str(t.value)}, Effect:${str(t.effect)}, TolerationSeconds:${seconds}}`;
}

/** ValidateTolerations */
export function validateTolerations(errs: FieldError[], value: unknown, path: FieldPath): void {
  const list = readObjectList(errs, path, value);
  if (!Array.isArray(list)) return;
  list.forEach((item, i) => {
    if (item === WRONG_TYPE || item === undefined) return;
    const p = path.index(i);
    const key = typeof item.key === 'string' ? item.key : '';
    const operator = typeof item.operator === 'string' ? item.operator : '';
    const effect = typeof item.effect === 'string' ? item.effect : '';
    const val = typeof item.value === 'string' ? item.value : '';
    if (key !== '') for (const msg of isQualifiedName(key)) errs.push(invalidValue(p.child('key'), key, msg));
    if (key === '' && operator !== 'Exists') {
      errs.push(
        invalidValue(
          p.child('operator'),
          operator,
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (!isAbsent(item.tolerationSeconds) && effect !== 'NoExecute') {
      errs.push(invalidValue(p.child('effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(val);
      if (msgs.length > 0) errs.push(invalidValue(p.child('operator'), val, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (val !== '')
        errs.push(
          invalidValue(
            p.child('operator'),
            goLiteral(tolerationLiteral(item)),
            "value must be empty when `operator` is 'Exists'",
          ),
        );
    } else {
      errs.push(notSupported(p.child('operator'), operator, TOLERATION_OPERATORS));
    }
    if (effect !== '' && !TAINT_EFFECTS.includes(effect))
      errs.push(notSupported(p.child('effect'), effect, TAINT_EFFECTS));
  });
}
