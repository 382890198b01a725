// PUT on an object or its status: decode (with field validation), check name/namespace against the URL, compare-and-swap update.
import { badRequest } from '../../apimachinery/errors';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace, toStorage } from './api-request';
import { bodyFormatOf, negotiateResponse } from '../negotiation';
import { readBody } from '../request-body';
import { decodeBody, fieldValidationDirective } from '../decode-body';
import { parseWriteQuery } from './write-options';
import { writeResponse } from './write-response';
import { fieldManagerScope, managerOrUserAgent } from './field-manager';
import { updateManagedFields } from '../../apimachinery/managed-fields';
import type { ApiObject } from '../../apimachinery/meta/types';

/** checkName of the update and patch handlers. */
export function checkNameAndNamespace(r: ApiRequest, obj: ApiObject): void {
  const name = obj.metadata.name ?? '';
  if (name !== r.info.name)
    throw badRequest(`the name of the object (${name}) does not match the name on the URL (${r.info.name})`);
  const namespace = requestNamespace(r);
  const objNamespace = obj.metadata.namespace ?? '';
  if (namespace !== '' && objNamespace !== '' && objNamespace !== namespace) {
    throw badRequest(
      `the namespace of the object (${objNamespace}) does not match the namespace on the request (${namespace})`,
    );
  }
}

export async function handleUpdate(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const options = parseWriteQuery(r.query, 'UpdateOptions');
  const format = bodyFormatOf(r.req.headers['content-type']);
  const body = await readBody(r.req);
  const def = r.served.definition;
  const directive = fieldValidationDirective(options.fieldValidation, r.features.serverSideFieldValidation !== false);
  const { object: obj, warnings } = decodeBody(body, format, def, (v, k) => r.registry.isKnownKind(v, k), directive);
  checkNameAndNamespace(r, obj);
  def.strategy.applyDefaults(obj);
  const manager = managerOrUserAgent(options.fieldManager, r.req.headers['user-agent']);
  const scope = fieldManagerScope(r);
  const track = (o: ApiObject, live: ApiObject | undefined): ApiObject => updateManagedFields(live, o, manager, scope);
  const result = await r.store.update(requestNamespace(r), r.info.name, toStorage(r, obj), {
    dryRun: options.dryRun,
    transform: track,
    user: r.user,
    context: r.context,
  });
  writeResponse(r.res, result.created ? 201 : 200, asServed(r, result.object), r.negotiated, {
    pretty: r.pretty,
    warnings: [...warnings, ...result.warnings],
  });
}
