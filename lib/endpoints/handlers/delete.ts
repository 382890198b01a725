// DELETE on an object: removed at once, or marked terminating while finalizers hold it.
import type { Status } from '../../apimachinery/errors';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace } from './api-request';
import { negotiateResponse } from '../negotiation';
import { readDeleteOptions } from './delete-options';
import { writeResponse } from './write-response';

export async function handleDelete(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const options = await readDeleteOptions(r, true);
  const outcome = await r.store.delete(requestNamespace(r), r.info.name, options, {
    dryRun: (options.dryRun ?? []).length > 0,
    context: r.context,
  });
  if (outcome.kind === 'terminating') {
    writeResponse(r.res, outcome.accepted ? 202 : 200, asServed(r, outcome.object), r.negotiated, { pretty: r.pretty });
    return;
  }
  if (r.served.returnDeletedObject) {
    writeResponse(r.res, 200, asServed(r, outcome.object), r.negotiated, { pretty: r.pretty });
    return;
  }
  const def = r.served.definition;
  const details: NonNullable<Status['details']> = { name: r.info.name };
  if (def.group !== '') details.group = def.group;
  details.kind = def.resource;
  if (outcome.object.metadata.uid) details.uid = outcome.object.metadata.uid;
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 };
  const { code: _code, ...body } = status; // a success Status carries no code, as Kubernetes writes it
  writeResponse(r.res, 200, body, r.negotiated, { pretty: r.pretty });
}
