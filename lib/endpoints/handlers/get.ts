// GET on a named object (or its status).
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace } from './api-request';
import { negotiateResponse } from '../negotiation';
import { parseResourceVersion } from './list-options';
import { writeJsonText, writeResponse } from './write-response';
import { servedJson, spliceResourceVersion, storedTypeMeta } from '../../storage/stored-json';
import { parseIncludeObject, toTable } from '../table';

/** Serves the stored bytes with the resourceVersion spliced in; false when they are not in the served form. */
async function writeStoredJson(r: ApiRequest): Promise<boolean> {
  const { json, resourceVersion } = await r.store.getJson(requestNamespace(r), r.info.name);
  const typeMeta = storedTypeMeta(json);
  const def = r.served.definition;
  if (!typeMeta || typeMeta.kind !== def.kind || typeMeta.apiVersion !== (def.group === '' ? def.version : `${def.group}/${def.version}`)) return false;
  writeJsonText(r.res, 200, spliceResourceVersion(json, resourceVersion));
  return true;
}

export async function handleGet(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, true);
  const resourceVersion = parseResourceVersion(r.query.get('resourceVersion'));
  const plainJson = !r.negotiated.table && r.negotiated.mediaType === 'application/json' && !r.pretty;
  if (resourceVersion === undefined && plainJson && (await writeStoredJson(r))) return;
  const obj = asServed(r, await r.store.getAtVersion(requestNamespace(r), r.info.name, resourceVersion));
  const reused = plainJson ? servedJson(obj) : undefined;
  if (reused !== undefined) {
    writeJsonText(r.res, 200, reused);
    return;
  }
  if (r.negotiated.table) {
    const includeObject = parseIncludeObject(r.query.get('includeObject'));
    const table = toTable([obj], r.served.definition.strategy.table, { resourceVersion: obj.metadata.resourceVersion ?? '' }, { request: r.negotiated.table, includeObject });
    writeResponse(r.res, 200, table, r.negotiated, { pretty: r.pretty });
    return;
  }
  writeResponse(r.res, 200, obj, r.negotiated, { pretty: r.pretty });
}
