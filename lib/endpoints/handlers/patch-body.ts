// Decoding PATCH bodies with kube-apiserver's 400 texts, which depend on the patch type and on fieldValidation.
import { badRequest } from '../../apimachinery/errors';
import { isPlainObject } from '../../apimachinery/meta/types';
import { jsonNestsTooDeep } from '../../apimachinery/json/max-depth';
import { goJsonKind, MAP_GO } from '../../apimachinery/json/go-json-errors';
import { goJsonSyntaxError } from '../../apimachinery/json/json-reader';
import type { FieldValidation } from './write-options';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** evanphx ErrBadJSONPatch: a merge patch that is not a JSON object. */
const BAD_JSON_PATCH_TEXT = 'Invalid JSON Patch';
/** Strict and Warn decode JSON and merge patches strictly first, prefixing the decoder's error. */
const STRICT_DECODE_PREFIX = 'error decoding patch: ';

const decodesStrictly = (fieldValidation: FieldValidation): boolean => fieldValidation !== 'Ignore';

/** The body as JSON; a syntax error is worded as the Go decoder that would have read it. */
export function parsePatchText(body: Buffer, type: PatchType, fieldValidation: FieldValidation): unknown {
  try {
    const text = body.toString('utf8');
    const value: unknown = JSON.parse(text);
    if (jsonNestsTooDeep(text)) throw new Error('too deep'); // the scanner below words it
    return value;
  } catch (err) {
    const syntax = goJsonSyntaxError(body) ?? (err instanceof Error ? err.message : String(err));
    if (type === 'merge' && !decodesStrictly(fieldValidation)) throw badRequest(BAD_JSON_PATCH_TEXT);
    if (type === 'strategic' || !decodesStrictly(fieldValidation)) throw badRequest(syntax);
    throw badRequest(`${STRICT_DECODE_PREFIX}${syntax}`);
  }
}

const JSON_PATCH_STRING_FIELDS = new Set(['op', 'path', 'from']);

/**
 * The operations of a JSON patch (none for `null`). Strict decoding targets `[]handlers.jsonPatchOp`
 * (string op/path/from), lenient decoding jsonpatch.Patch; their type errors differ.
 */
export function jsonPatchOperations(patch: unknown, fieldValidation: FieldValidation): unknown[] {
  if (patch === null) return [];
  const strict = decodesStrictly(fieldValidation);
  const prefix = strict ? STRICT_DECODE_PREFIX : '';
  const refuse = (value: unknown, goType: string): never => {
    throw badRequest(`${prefix}json: cannot unmarshal ${goJsonKind(value)} into Go ${goType}`);
  };
  if (!Array.isArray(patch))
    refuse(patch, strict ? 'value of type []handlers.jsonPatchOp' : 'value of type jsonpatch.Patch');
  const operations = patch as unknown[]; // an array: refused just above otherwise
  for (const op of operations) {
    if (op === null) continue;
    if (!isPlainObject(op))
      refuse(op, strict ? 'value of type handlers.jsonPatchOp' : 'value of type jsonpatch.Operation');
    if (!strict) continue;
    for (const [field, value] of Object.entries(op as Record<string, unknown>)) {
      if (JSON_PATCH_STRING_FIELDS.has(field) && value !== null && typeof value !== 'string')
        refuse(value, `struct field jsonPatchOp.${field} of type string`);
    }
  }
  return operations;
}

/**
 * A merge patch must be an object. Strict decoding refuses other JSON with a type error; lenient
 * decoding lets a list through (it becomes the document) and refuses the rest as ErrBadJSONPatch.
 */
export function mergePatchDocument(
  patch: unknown,
  fieldValidation: FieldValidation,
): Record<string, unknown> | unknown[] {
  if (isPlainObject(patch)) return patch;
  if (patch !== null && decodesStrictly(fieldValidation))
    throw badRequest(
      `${STRICT_DECODE_PREFIX}json: cannot unmarshal ${goJsonKind(patch)} into Go value of type ${MAP_GO}`,
    );
  if (Array.isArray(patch)) return patch;
  throw badRequest(BAD_JSON_PATCH_TEXT);
}

/** A strategic merge patch decodes into a map; null is an empty patch. */
export function strategicPatchDocument(patch: unknown): Record<string, unknown> | null {
  if (patch === null || isPlainObject(patch)) return patch;
  throw badRequest(`json: cannot unmarshal ${goJsonKind(patch)} into Go value of type ${MAP_GO}`);
}
