// PATCH on an object or its status: JSON patch (RFC 6902), merge patch (RFC 7386) and strategic merge patch.
import { badRequest, requestEntityTooLarge, unsupportedMediaType } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace, toStorage } from './api-request';
import { negotiateResponse } from '../negotiation';
import { readBody } from '../request-body';
import { parseWriteQuery } from './write-options';
import { rejectUnroutedPatch } from './patch-route';
import { writeResponse } from './write-response';
import { checkNameAndNamespace } from './update';
import { mergePatch } from './merge-patch';
import { applyJsonPatch, JsonPatchError } from './json-patch';
import {
  jsonPatchOperations,
  mergePatchDocument,
  parsePatchText,
  strategicPatchDocument,
  type PatchType,
} from './patch-body';
import { patchedObject, patchRejected, strategicPatchFailure } from './patch-result';
import type { FieldValidation } from './write-options';
import { apiVersionOfDefinition } from '../../registry/rest/resource';
import { patchMetaForKind, strategicMergePatch, type PatchMeta } from '../../apimachinery/strategic-merge-patch';
import { schemaFor } from '../../apimachinery/schema/kinds';
import { fieldValidationDirective } from '../decode-body';
import { checkPatchedObject, patchBodyProblems } from '../decode-patch';
import { updateManagedFields } from '../../apimachinery/managed-fields';
import { forbiddenField } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import { invalid } from '../../apimachinery/errors';
import { handleApply } from './apply';
import { fieldManagerScope, managerOrUserAgent } from './field-manager';
import { META_GROUP } from './list-options';
import { parseQueryBool } from '../query-bool';
import { PATCH_TYPES } from '../routes/route-table';

/** `force` (apply only: 422 Forbidden on other patches). */
export function parseForce(query: URLSearchParams, type: PatchType): boolean {
  if (!query.has('force')) return false;
  if (type !== 'apply')
    throw invalid({ group: META_GROUP, kind: 'PatchOptions' }, '', [
      forbiddenField(FieldPath.root('force'), 'may not be specified for non-apply patch'),
    ]);
  return parseQueryBool(query.get('force'));
}

const MAX_JSON_PATCH_OPERATIONS = 10000;
const PATCH_TYPES_TEXT = `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')}`;

export type { PatchType } from './patch-body';

export function patchTypeOf(contentType: string | undefined): PatchType {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  switch (type) {
    case 'application/json-patch+json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    case 'application/apply-patch+yaml':
      return 'apply';
    default:
      throw unsupportedMediaType(PATCH_TYPES_TEXT);
  }
}

/** The patch body as JSON (400 with the Go decoder's text for the type and fieldValidation when it is not). */
export function parsePatchBody(
  body: Buffer,
  type: PatchType = 'merge',
  fieldValidation: FieldValidation = 'Warn',
): unknown {
  return parsePatchText(body, type, fieldValidation);
}

export interface PatcherOptions {
  /** Merge keys and strategies of the patched kind; without them a strategic patch merges maps and replaces lists. */
  schema?: PatchMeta | undefined;
  fieldValidation?: FieldValidation;
}

/**
 * Checks the decoded patch and returns a function that applies it to the current object (called
 * again on each retry). Failures are Kubernetes': 400 for undecodable patches, 413 for too many JSON
 * patch operations, 422 for failed JSON patch operations, strategic merge errors as interpreted upstream.
 */
export function patcher(
  type: PatchType,
  patch: unknown,
  options: PatcherOptions = {},
): (current: ApiObject) => ApiObject {
  const fieldValidation = options.fieldValidation ?? 'Warn';
  switch (type) {
    case 'json': {
      const operations = jsonPatchOperations(patch, fieldValidation);
      if (operations.length > MAX_JSON_PATCH_OPERATIONS) {
        throw requestEntityTooLarge(
          `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${operations.length}`,
        );
      }
      return (current) => {
        try {
          return patchedObject(applyJsonPatch(current, operations));
        } catch (err) {
          throw err instanceof JsonPatchError ? patchRejected() : err;
        }
      };
    }
    case 'merge': {
      const document = mergePatchDocument(patch, fieldValidation);
      return (current) => patchedObject(mergePatch(current, document));
    }
    case 'strategic': {
      const document = strategicPatchDocument(patch);
      return (current) => {
        try {
          return patchedObject(strategicMergePatch(current, document, options.schema));
        } catch (err) {
          throw strategicPatchFailure(err);
        }
      };
    }
    case 'apply':
      throw new Error('apply patches are handled by handleApply');
  }
}

interface DecodedPatch {
  patch: unknown;
  apply: (current: ApiObject) => ApiObject;
  bodyProblems: ReturnType<typeof patchBodyProblems>;
}

function decodePatch(
  r: ApiRequest,
  body: Buffer,
  type: Exclude<PatchType, 'apply'>,
  directive: FieldValidation,
): DecodedPatch {
  const patch = parsePatchBody(body, type, directive);
  const def = r.served.definition;
  const apply = patcher(type, patch, {
    schema: patchMetaForKind(apiVersionOfDefinition(def), def.kind),
    fieldValidation: directive,
  });
  return { patch, apply, bodyProblems: patchBodyProblems(body, type, directive) };
}

export async function handlePatch(r: ApiRequest): Promise<void> {
  rejectUnroutedPatch(r);
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const type = patchTypeOf(r.req.headers['content-type']);
  const options = parseWriteQuery(r.query, 'PatchOptions');
  const directive = fieldValidationDirective(options.fieldValidation, r.features.serverSideFieldValidation !== false);
  const force = parseForce(r.query, type);
  const body = await readBody(r.req);
  if (type === 'apply') return handleApply(r, options, directive, body, force);
  const def = r.served.definition;
  const schema = schemaFor(apiVersionOfDefinition(def), def.kind);
  let warnings: string[] = [];
  const manager = managerOrUserAgent(options.fieldManager, r.req.headers['user-agent']);
  const scope = fieldManagerScope(r);
  // Decoded once the object is known to exist: Kubernetes answers 404 for any patch of a missing object, even a malformed one.
  let decoded: DecodedPatch | undefined;
  const result = await r.store.patch(
    requestNamespace(r),
    r.info.name,
    (current) => {
      decoded ??= decodePatch(r, body, type, directive);
      const { patch, apply, bodyProblems } = decoded;
      const checked = checkPatchedObject(apply(asServed(r, current)), schema, type, patch, directive, bodyProblems, {
        apiVersion: apiVersionOfDefinition(def),
        kind: def.kind,
      });
      warnings = checked.warnings;
      const patched = checked.object;
      if (!isPlainObject(patched) || !isPlainObject(patched['metadata']))
        throw badRequest('the patched object is not a valid object');
      const obj = patched as ApiObject; // checked to be an object with metadata just above
      checkNameAndNamespace(r, obj);
      def.strategy.applyDefaults(obj);
      return toStorage(r, obj);
    },
    {
      dryRun: options.dryRun,
      transform: (obj, live) => updateManagedFields(live, obj, manager, scope),
      user: r.user,
      context: r.context,
    },
  );
  writeResponse(r.res, 200, asServed(r, result.object), r.negotiated, {
    pretty: r.pretty,
    warnings: [...warnings, ...result.warnings],
  });
}
