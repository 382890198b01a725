// DeleteOptions from a DELETE's body (when present) or its query parameters, validated (422 DeleteOptions).
import { badRequest, invalid, StatusError } from '../../apimachinery/errors';
import type { DeleteOptions } from '../../apimachinery/meta/delete-options';
import { validateDeleteOptions } from '../../apimachinery/meta/delete-options';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { ApiRequest } from './api-request';
import { bodyFormatOf } from '../negotiation';
import { readBody } from '../request-body';
import { yamlToJson } from '../../apimachinery/json/yaml-to-json';
import { decodeJson } from '../../apimachinery/json/schema-decoder';
import { messageNode, type SchemaNode } from '../../apimachinery/schema';
import { decodeProtobufBody } from '../../apimachinery/serializers/protobuf';
import { META_GROUP, parseIntegerParam } from './list-options';
import { dryRunValues } from './write-options';
import { optionalQueryBool } from '../query-bool';

const DELETE_OPTIONS_API_VERSIONS = new Set(['v1', 'meta.orch.io/v1', 'meta.k8s.io/v1', '']);

function fromBody(value: unknown): DeleteOptions {
  if (!isPlainObject(value)) throw badRequest('the body of a delete must be a DeleteOptions object');
  const kind = value['kind'] ?? 'DeleteOptions';
  const apiVersion = value['apiVersion'] ?? '';
  if (kind !== 'DeleteOptions' || typeof apiVersion !== 'string' || !DELETE_OPTIONS_API_VERSIONS.has(apiVersion)) {
    throw badRequest(`${String(kind)} in version "${String(apiVersion)}" cannot be handled as a DeleteOptions`);
  }
  const options: DeleteOptions = {};
  const grace = value['gracePeriodSeconds'];
  if (grace !== undefined && grace !== null) {
    if (!Number.isInteger(grace))
      throw badRequest('json: cannot unmarshal into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
    options.gracePeriodSeconds = grace as number;
  }
  const pre = value['preconditions'];
  if (isPlainObject(pre)) {
    options.preconditions = {};
    if (typeof pre['uid'] === 'string') options.preconditions.uid = pre['uid'];
    if (typeof pre['resourceVersion'] === 'string') options.preconditions.resourceVersion = pre['resourceVersion'];
  }
  if (typeof value['orphanDependents'] === 'boolean') options.orphanDependents = value['orphanDependents'];
  if (typeof value['propagationPolicy'] === 'string') options.propagationPolicy = value['propagationPolicy'];
  if (Array.isArray(value['dryRun']))
    options.dryRun = (value['dryRun'] as unknown[]).map(String).filter((v) => v !== '');
  return options;
}

function protobufDeleteOptions(body: Buffer): unknown {
  const decoded = decodeProtobufBody(body);
  return { ...decoded.object, kind: decoded.kind || 'DeleteOptions', apiVersion: decoded.apiVersion };
}

function fromQuery(query: URLSearchParams): DeleteOptions {
  const options: DeleteOptions = {};
  const grace = parseIntegerParam(query.get('gracePeriodSeconds'));
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const policy = query.get('propagationPolicy');
  if (policy !== null && policy !== '') options.propagationPolicy = policy;
  const orphan = optionalQueryBool(query, 'orphanDependents');
  if (orphan !== undefined) options.orphanDependents = orphan;
  const uid = query.get('uid');
  const rv = query.get('resourceVersion');
  if (uid || rv) options.preconditions = { ...(uid ? { uid } : {}), ...(rv ? { resourceVersion: rv } : {}) };
  const dryRun = dryRunValues(query);
  if (dryRun.length > 0) options.dryRun = dryRun;
  return options;
}

let deleteOptionsNode: SchemaNode | undefined;

/**
 * A JSON (or YAML, converted) body decoded into DeleteOptions as Go's decoder does: a wrongly typed field
 * (`"dryRun":"All"`, `"preconditions":{"uid":5}`) fails the request with Go's text instead of being dropped, so a
 * delete the client meant to be dry or guarded never runs unguarded.
 */
function decodeTextOptions(text: string): unknown {
  deleteOptionsNode ??= messageNode('k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions');
  const decoded = decodeJson(text, deleteOptionsNode, { strict: false });
  if (decoded.error !== undefined) throw badRequest(`couldn't decode DeleteOptions: ${decoded.error}`);
  return decoded.value;
}

/** `allowPreconditionQuery` is false for deletecollection, whose resourceVersion is a list option. */
export async function readDeleteOptions(r: ApiRequest, allowPreconditionQuery: boolean): Promise<DeleteOptions> {
  const body = await readBody(r.req);
  let options: DeleteOptions;
  if (body.length > 0) {
    const format = bodyFormatOf(r.req.headers['content-type']);
    let value: unknown;
    try {
      value =
        format === 'protobuf'
          ? protobufDeleteOptions(body)
          : decodeTextOptions(
              format === 'yaml' ? yamlToJson(body.toString('utf8'), { strict: false }).json : body.toString('utf8'),
            );
    } catch (err) {
      if (err instanceof StatusError) throw err;
      throw badRequest(`couldn't decode DeleteOptions: ${err instanceof Error ? err.message : String(err)}`);
    }
    options = fromBody(value);
  } else {
    options = fromQuery(r.query);
    if (!allowPreconditionQuery) delete options.preconditions;
  }
  const errs = validateDeleteOptions(options);
  if (errs.length > 0) throw invalid({ group: META_GROUP, kind: 'DeleteOptions' }, '', errs);
  return options;
}
