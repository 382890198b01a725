// GET on a named object (or its status).
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace } from './api-request';
import { negotiateResponse } from '../negotiation';
import { parseResourceVersion } from './list-options';
import { writeResponse } from './write-response';
import { parseIncludeObject, toTable } from '../table';

export async function handleGet(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, true);
  parseResourceVersion(r.query.get('resourceVersion'));
  const obj = asServed(r, await r.store.get(requestNamespace(r), r.info.name));
  if (r.negotiated.table) {
    const includeObject = parseIncludeObject(r.query.get('includeObject'));
    const table = toTable([obj], r.served.definition.strategy.table, { resourceVersion: obj.metadata.resourceVersion ?? '' }, { request: r.negotiated.table, includeObject });
    writeResponse(r.res, 200, table, r.negotiated, { pretty: r.pretty });
    return;
  }
  writeResponse(r.res, 200, obj, r.negotiated, { pretty: r.pretty });
}
