// PATCH on an object or its status: JSON patch (RFC 6902), merge patch (RFC 7386) and strategic merge patch.
import { applyPatch, type Operation } from 'fast-json-patch';
import { badRequest, requestEntityTooLarge, StatusError, unsupportedMediaType } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace } from './api-request';
import { negotiateResponse } from '../negotiation';
import { readBody } from '../request-body';
import { parseWriteQuery } from './write-options';
import { writeResponse } from './write-response';
import { checkNameAndNamespace } from './update';
import { mergePatch } from './merge-patch';

const MAX_JSON_PATCH_OPERATIONS = 10000;
const PATCH_TYPES_TEXT =
  'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json';

export type PatchType = 'json' | 'merge' | 'strategic';

export function patchTypeOf(contentType: string | undefined): PatchType {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  switch (type) {
    case 'application/json-patch+json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    default:
      throw unsupportedMediaType(PATCH_TYPES_TEXT);
  }
}

export function parsePatchBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw badRequest(`error decoding patch: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Returns a function that applies the patch to the current object. */
export function patcher(type: PatchType, patch: unknown): (current: ApiObject) => unknown {
  if (type === 'json') {
    if (!Array.isArray(patch)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
      throw requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
    }
    return (current) => {
      try {
        return applyPatch(current, patch as Operation[], true, false).newDocument;
      } catch (err) {
        throw new StatusError(422, 'Invalid', err instanceof Error ? err.message.split('\n')[0] ?? '' : String(err));
      }
    };
  }
  if (!isPlainObject(patch)) throw badRequest(`error decoding patch: json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`);
  // Until schema-driven strategic merge lands, a strategic patch merges maps and replaces lists, like a merge patch.
  return (current) => mergePatch(current, patch);
}

export async function handlePatch(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const type = patchTypeOf(r.req.headers['content-type']);
  const options = parseWriteQuery(r.query, 'PatchOptions');
  const apply = patcher(type, parsePatchBody(await readBody(r.req)));
  const def = r.served.definition;
  const result = await r.store.patch(requestNamespace(r), r.info.name, (current) => {
    const patched = apply(asServed(r, current));
    if (!isPlainObject(patched) || !isPlainObject(patched['metadata'])) throw badRequest('the patched object is not a valid object');
    const obj = patched as ApiObject; // checked to be an object with metadata just above
    checkNameAndNamespace(r, obj);
    def.strategy.applyDefaults(obj);
    return obj;
  }, { dryRun: options.dryRun });
  writeResponse(r.res, 200, asServed(r, result.object), r.negotiated, { pretty: r.pretty, warnings: result.warnings });
}
