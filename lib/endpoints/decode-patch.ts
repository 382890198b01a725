// Field validation of PATCH: the patch body's own repeated keys, then the patched object decoded against the kind's schema, with Kubernetes' 422 texts.
import { invalid, type StatusError } from '../apimachinery/errors';
import { invalidValue } from '../apimachinery/field/errors';
import { FieldPath } from '../apimachinery/field/path';
import { fromUnstructuredError } from '../apimachinery/json/from-unstructured';
import { JsonSyntaxError } from '../apimachinery/json/go-json-errors';
import { decodeJson } from '../apimachinery/json/schema-decoder';
import { strictDecodingError, warningsOfStrictError } from '../apimachinery/json/strict-errors';
import type { ApiObject } from '../apimachinery/meta/types';
import { ANY_MAP_NODE, ANY_NODE, sliceNode, STRING_NODE, structNode } from '../apimachinery/schema/generic-nodes';
import type { SchemaNode } from '../apimachinery/schema/node';
import { goPrint } from '../apimachinery/strategic-merge-patch/go-print';
import { goMarshal } from '../apimachinery/json/go-marshal';
import type { PatchType } from './handlers/patch-body';
import type { FieldValidation } from './handlers/write-options';
import { goShape } from '../apimachinery/serializers/go-shape';
import { canonicalApiVersion } from '../apimachinery/schema/group-aliases';
import { notRegisteredText } from '../apimachinery/schema/scheme';

/** apiserver handlers/patch.go jsonPatchOp: what a JSON patch is strictly decoded into. */
const JSON_PATCH_OPS = sliceNode(
  structNode('handlers.jsonPatchOp', 'jsonPatchOp', {
    op: STRING_NODE,
    path: STRING_NODE,
    from: STRING_NODE,
    value: ANY_NODE,
  }),
);
// patch.go applyJSPatch: strict errors of a JSON patch body are wrapped as `json patch %v`.
const JSON_PATCH_PREFIX = 'json patch ';

/**
 * Strict decoding problems of the patch body itself (Warn and Strict only): repeated keys of a merge or
 * strategic patch, repeated or unknown operation fields of a JSON patch. Malformed bodies are the patch
 * decoder's to refuse, so they give nothing here.
 */
export function patchBodyProblems(body: Buffer, type: PatchType, directive: FieldValidation): string[] {
  if (directive === 'Ignore') return [];
  try {
    const decoded = decodeJson(body.toString('utf8'), type === 'json' ? JSON_PATCH_OPS : ANY_MAP_NODE, {
      strict: true,
    });
    return type === 'json' ? decoded.strictErrors.map((p) => `${JSON_PATCH_PREFIX}${p}`) : decoded.strictErrors;
  } catch (err) {
    if (err instanceof JsonSyntaxError) return [];
    throw err;
  }
}

/** 422 ` "" is invalid: patch: Invalid value: "<patched>": <detail>` (NewInvalid with an empty GroupKind and name). */
function patchInvalid(shown: string, detail: string): StatusError {
  const err = invalid({ group: '', kind: '' }, '', [invalidValue(FieldPath.root('patch'), shown, detail)]);
  delete err.status.details?.kind; // an empty GroupKind leaves details without a kind
  return err;
}

/** The group/version and kind the patched resource is served as. */
export interface ServedKind {
  apiVersion: string;
  kind: string;
}

/**
 * JSON and merge patches are decoded into the served kind (runtime.DecodeInto): a patch that changes `apiVersion` or
 * `kind` names another type, which cannot be decoded into it (422 `no kind "Namespace" is registered for version
 * "apps/v1" …`); removing them leaves the served ones. Strategic patches go through the unstructured converter,
 * which does not read them.
 */
function checkPatchedKind(patched: ApiObject, served: ServedKind, shown: () => string): void {
  const apiVersion =
    typeof patched.apiVersion === 'string' && patched.apiVersion !== '' ? patched.apiVersion : undefined;
  const kind = typeof patched.kind === 'string' && patched.kind !== '' ? patched.kind : undefined;
  const sameVersion =
    apiVersion === undefined || canonicalApiVersion(apiVersion) === canonicalApiVersion(served.apiVersion);
  if (sameVersion && (kind === undefined || kind === served.kind)) return;
  throw patchInvalid(shown(), notRegisteredText(kind ?? served.kind, apiVersion ?? served.apiVersion));
}

export interface CheckedPatch {
  /** The patched object as decoding leaves it: unknown fields dropped. */
  object: ApiObject;
  /** Warning texts (fieldValidation=Warn): the body's problems first, then the patched object's. */
  warnings: string[];
}

/**
 * Decodes the patched object as kube-apiserver decodes the patched JSON (JSON and merge patches) or map
 * (strategic patches, through the unstructured converter: its type texts, unknown fields sorted). A type
 * error is 422 whatever the directive; strict problems are 422 under Strict and warnings under Warn. The
 * Invalid value shown is the patched JSON, or for strategic patches Go's `%+v` of the patch.
 */
export function checkPatchedObject(
  patched: ApiObject,
  schema: SchemaNode | undefined,
  type: PatchType,
  patch: unknown,
  directive: FieldValidation,
  bodyProblems: readonly string[],
  served?: ServedKind,
): CheckedPatch {
  const shown = (): string => (type === 'strategic' ? goPrint(patch) : goMarshal(patched));
  if (served !== undefined && type !== 'strategic') checkPatchedKind(patched, served, shown);
  if (schema === undefined) return { object: patched, warnings: [] };
  // Decoded in the object's own key order, so what is stored keeps it; Kubernetes' text shows json.Marshal's form.
  const decoded = decodeJson(JSON.stringify(patched), schema, { strict: directive !== 'Ignore' });
  const typeError = type === 'strategic' ? fromUnstructuredError(patched, schema) : decoded.error;
  if (typeError !== undefined) throw patchInvalid(shown(), typeError);
  const objectProblems = type === 'strategic' ? [...decoded.strictErrors].sort() : decoded.strictErrors;
  const problems = [...bodyProblems, ...objectProblems];
  if (problems.length > 0 && directive === 'Strict') throw patchInvalid(shown(), strictDecodingError(problems));
  const warnings = directive === 'Warn' ? problems.flatMap(warningsOfStrictError) : [];
  // Go decodes the patched JSON into the kind's type: from here on it is that object as Go writes it.
  return { object: goShape(decoded.value as ApiObject), warnings }; // the patched object, an object, decoded as one
}
