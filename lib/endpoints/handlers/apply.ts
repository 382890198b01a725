// PATCH with application/apply-patch+yaml (server-side apply): create-or-merge under the applier's ownership, 201 when it created.
import { badRequest, invalid } from '../../apimachinery/errors';
import { required } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import { yamlToJson } from '../../apimachinery/json/yaml-to-json';
import { goJsonKind, MAP_GO } from '../../apimachinery/json/go-json-errors';
import { applyToObject } from '../../apimachinery/managed-fields';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace, toStorage } from './api-request';
import { fieldManagerScope } from './field-manager';
import { META_GROUP } from './list-options';
import { checkNameAndNamespace } from './update';
import type { FieldValidation, WriteQuery } from './write-options';
import { writeResponse } from './write-response';
import { goShape } from '../../apimachinery/serializers/go-shape';

/** The applied configuration: YAML (JSON included), an object; strict duplicate keys per fieldValidation. */
export function applyConfiguration(
  body: Buffer,
  directive: FieldValidation,
): { config: Record<string, unknown>; warnings: string[] } {
  let converted;
  try {
    converted = yamlToJson(body.toString('utf8'), { strict: directive !== 'Ignore' });
  } catch (err) {
    throw badRequest(`error decoding YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed: unknown = JSON.parse(converted.json);
  if (parsed !== null && !isPlainObject(parsed))
    throw badRequest(
      `error decoding YAML: json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type ${MAP_GO}`,
    );
  const warnings: string[] = [];
  if (converted.duplicateKeysError !== undefined) {
    if (directive === 'Strict') throw badRequest(`error strict decoding YAML: ${converted.duplicateKeysError}`);
    warnings.push(converted.duplicateKeysError);
  }
  return { config: parsed ?? {}, warnings };
}

/** `fieldManager` is required for apply (422 on PatchOptions). */
export function requireApplyManager(options: WriteQuery): string {
  if (options.fieldManager === '')
    throw invalid({ group: META_GROUP, kind: 'PatchOptions' }, '', [
      required(FieldPath.root('fieldManager'), 'is required for apply patch'),
    ]);
  return options.fieldManager;
}

export async function handleApply(
  r: ApiRequest,
  options: WriteQuery,
  directive: FieldValidation,
  body: Buffer,
  force: boolean,
): Promise<void> {
  const manager = requireApplyManager(options);
  const { config, warnings } = applyConfiguration(body, directive);
  const scope = fieldManagerScope(r);
  const def = r.served.definition;
  const run = (live: ApiObject | undefined): ApiObject => {
    // The merged result becomes the kind's Go type before it is stored, as in Kubernetes.
    const obj = goShape(
      applyToObject(live === undefined ? undefined : asServed(r, live), config, manager, force, scope),
    );
    checkNameAndNamespace(r, obj);
    def.strategy.applyDefaults(obj);
    return toStorage(r, obj);
  };
  const result = await r.store.patch(requestNamespace(r), r.info.name, (current) => run(current), {
    dryRun: options.dryRun,
    user: r.user,
    context: r.context,
    // Creating through apply needs create as well as the patch the request was authorized for (spec, Authentication 3).
    createMissing: () => {
      r.authorize?.('create');
      return run(undefined);
    },
  });
  writeResponse(
    r.res,
    result.created ? 201 : 200,
    asServed(r, result.object),
    r.negotiated ?? { mediaType: 'application/json' },
    { pretty: r.pretty, warnings: [...warnings, ...result.warnings] },
  );
}
