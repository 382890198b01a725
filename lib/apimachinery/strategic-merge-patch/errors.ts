// Strategic merge patch failures with k8s.io/apimachinery's texts (pkg/util/mergepatch/errors.go, strategicpatch/patch.go).
import { goPrint, reflectTypeName } from './go-print';

/**
 * How kube-apiserver answers a failure (endpoints/handlers/patch.go interpretStrategicMergePatchError):
 * the mergepatch format sentinels are 400 BadRequest, lists of lists and retainKeys mismatches a 422
 * with a fixed message, and every other error reaches the client as a bare error (500, no reason).
 */
export type PatchErrorClass = 'BadRequest' | 'Unprocessable' | 'Unclassified';

export class StrategicMergePatchError extends Error {
  constructor(
    message: string,
    readonly errorClass: PatchErrorClass = 'Unclassified',
  ) {
    super(message);
    this.name = 'StrategicMergePatchError';
  }
}

export const errBadJSONDoc = (): StrategicMergePatchError =>
  new StrategicMergePatchError('invalid JSON document', 'BadRequest');
export const errNoListOfLists = (): StrategicMergePatchError =>
  new StrategicMergePatchError('lists of lists are not supported', 'Unprocessable');
export const errBadPatchFormatForPrimitiveList = (): StrategicMergePatchError =>
  new StrategicMergePatchError('invalid patch format of primitive list', 'BadRequest');
export const errBadPatchFormatForRetainKeys = (): StrategicMergePatchError =>
  new StrategicMergePatchError('invalid patch format of retainKeys', 'BadRequest');
export const errBadPatchFormatForSetElementOrderList = (): StrategicMergePatchError =>
  new StrategicMergePatchError('invalid patch format of setElementOrder list', 'BadRequest');

/** `map: map[image:nginx] does not contain declared merge key: name`. */
export function errNoMergeKey(item: Record<string, unknown>, mergeKey: string): StrategicMergePatchError {
  return new StrategicMergePatchError(`map: ${goPrint(item)} does not contain declared merge key: ${mergeKey}`);
}

/** `expected a map[string]interface {}, but received a string`; `expected` names the Go type wanted. */
export function errBadArgType(expected: 'map' | 'slice', actual: unknown): StrategicMergePatchError {
  const wanted = expected === 'map' ? 'map[string]interface {}' : '[]interface {}';
  return new StrategicMergePatchError(`expected a ${wanted}, but received a ${reflectTypeName(actual)}`);
}

/** `unknown patch type: foo in map: map[$patch:foo name:a]`. */
export function errBadPatchType(directive: unknown, item: Record<string, unknown>): StrategicMergePatchError {
  return new StrategicMergePatchError(`unknown patch type: ${goPrint(directive, 's')} in map: ${goPrint(item)}`);
}
