// What a patch produced, as kube-apiserver's decoding of the patched JSON sees it, and the errors patch mechanisms end in.
import { badRequest, invalid, invalidRequest, type StatusError } from '../../apimachinery/errors';
import { invalidValue } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { StrategicMergePatchError } from '../../apimachinery/strategic-merge-patch';
import { goJsonKind, TYPE_META_GO } from '../../apimachinery/json/go-json-errors';
import { goMarshal } from '../../apimachinery/json/go-marshal';

/** NewGenericServerResponse(422): kube-apiserver's answer to a JSON patch operation that fails (the library text is dropped). */
const PATCH_REJECTED_TEXT = 'the server rejected our request due to an error in our request';

/** 422 Invalid, `details: {}`, the fixed message. */
export function patchRejected(): StatusError {
  return invalidRequest(PATCH_REJECTED_TEXT);
}

/**
 * interpretStrategicMergePatchError: format errors are 400, lists of lists and retainKeys mismatches
 * 422 as above. Kubernetes lets every other failure (a missing merge key, a bad `$patch` value…) reach the
 * client as a bare 500; they are all faults of the patch, so here they are 400 BadRequest with the same text.
 */
export function strategicPatchFailure(err: unknown): unknown {
  if (!(err instanceof StrategicMergePatchError)) return err;
  switch (err.errorClass) {
    case 'BadRequest':
      return badRequest(err.message, err);
    case 'Unprocessable':
      return patchRejected();
    case 'Unclassified':
      return badRequest(err.message, err);
  }
}

/**
 * The patched JSON as an object: null, or no metadata, are the zero object and ObjectMeta decoding into
 * the kind gives; anything but an object fails to decode (422 ` "" is invalid: patch: Invalid value: …`).
 */
export function patchedObject(result: unknown): ApiObject {
  if (result === null) return { metadata: {} }; // `null` decodes to the zero object
  if (!isPlainObject(result)) {
    const detail = `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(result)} into Go value of type ${TYPE_META_GO}`;
    const err = invalid({ group: '', kind: '' }, '', [
      invalidValue(FieldPath.root('patch'), goMarshal(result), detail),
    ]);
    delete err.status.details?.kind; // an empty GroupKind leaves details without a kind
    throw err;
  }
  if (result['metadata'] === undefined || result['metadata'] === null) result['metadata'] = {};
  return result as ApiObject; // an object; metadata types are checked by the handler and validation
}
