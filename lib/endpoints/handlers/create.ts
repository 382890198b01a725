// POST on a collection: decode (with field validation), default, and create through the store (201, dry-run included).
import type { ApiRequest } from './api-request';
import type { ApiObject } from '../../apimachinery/meta/types';
import { asServed, requestNamespace, toStorage } from './api-request';
import { bodyFormatOf, negotiateResponse } from '../negotiation';
import { readBody } from '../request-body';
import { decodeBody, fieldValidationDirective } from '../decode-body';
import { parseWriteQuery } from './write-options';
import { writeResponse } from './write-response';
import { fieldManagerScope, managerOrUserAgent } from './field-manager';
import { updateManagedFields } from '../../apimachinery/managed-fields';

export async function handleCreate(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const options = parseWriteQuery(r.query, 'CreateOptions');
  const format = bodyFormatOf(r.req.headers['content-type']);
  const body = await readBody(r.req);
  const def = r.served.definition;
  const directive = fieldValidationDirective(options.fieldValidation, r.features.serverSideFieldValidation !== false);
  const { object: obj, warnings } = decodeBody(body, format, def, (v, k) => r.registry.isKnownKind(v, k), directive);
  def.strategy.applyDefaults(obj);
  const manager = managerOrUserAgent(options.fieldManager, r.req.headers['user-agent']);
  const scope = fieldManagerScope(r);
  const track = (o: ApiObject, live: ApiObject | undefined): ApiObject => updateManagedFields(live, o, manager, scope);
  const result = await r.store.create(requestNamespace(r), toStorage(r, obj), {
    dryRun: options.dryRun,
    transform: track,
    user: r.user,
    context: r.context,
    refuseResourceVersion: true,
  });
  writeResponse(r.res, 201, asServed(r, result.object), r.negotiated, {
    pretty: r.pretty,
    warnings: [...warnings, ...result.warnings],
  });
}
