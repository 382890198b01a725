// GET on a named object (or its status).
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace, toStorage } from './api-request';
import { negotiateResponse } from '../negotiation';
import { parseResourceVersion } from './list-options';
import { writeJsonParts, writeJsonText, writeResponse } from './write-response';
import { servedJsonParts, spliceResourceVersion, storedTypeMeta } from '../../apimachinery/serializers/served-json';
import type { ApiObject } from '../../apimachinery/meta/types';
import { parseIncludeObject, toTable } from '../table';
import { partialObjectOf } from '../partial-object-metadata';
import { apiVersionOf } from '../../apimachinery/schema/group-version';

type StoredJson = Awaited<ReturnType<ApiRequest['store']['getJson']>>;

/** Serves the stored bytes with the resourceVersion spliced in; false when they are not in the served form. */
function writeStoredJson(r: ApiRequest, { json, resourceVersion }: StoredJson): boolean {
  const typeMeta = storedTypeMeta(json);
  const def = r.served.definition;
  if (!typeMeta || typeMeta.kind !== def.kind || typeMeta.apiVersion !== apiVersionOf(def)) return false;
  writeJsonText(r.res, 200, spliceResourceVersion(json, resourceVersion));
  return true;
}

export async function handleGet(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, true);
  const resourceVersion = parseResourceVersion(r.query.get('resourceVersion'));
  const plainJson =
    !r.negotiated.table && !r.negotiated.partial && r.negotiated.mediaType === 'application/json' && !r.pretty;
  let stored: ApiObject;
  if (resourceVersion === undefined) {
    // Most Recent: from the watch cache once it has caught up with etcd's current revision, else a quorum read of etcd.
    const cached = await r.store.latestFromCache(requestNamespace(r), r.info.name);
    if (cached !== undefined) stored = cached;
    else {
      const latest = await r.store.getJson(requestNamespace(r), r.info.name);
      if (plainJson && writeStoredJson(r, latest)) return;
      stored = r.store.latestObject(requestNamespace(r), r.info.name, latest);
    }
  } else {
    stored = await r.store.getAtVersion(requestNamespace(r), r.info.name, resourceVersion);
  }
  const obj = asServed(r, stored);
  const parts = plainJson ? servedJsonParts(obj) : undefined;
  if (parts !== undefined) {
    writeJsonParts(r.res, 200, parts);
    return;
  }
  if (r.negotiated.table) {
    const includeObject = parseIncludeObject(r.query.get('includeObject'));
    const table = toTable(
      [obj],
      r.served.definition.strategy.table,
      { resourceVersion: obj.metadata.resourceVersion ?? '' },
      { request: r.negotiated.table, includeObject, cellsFrom: (o) => toStorage(r, o) },
    );
    writeResponse(r.res, 200, table, r.negotiated, { pretty: r.pretty });
    return;
  }
  const partial = r.negotiated.partial;
  writeResponse(r.res, 200, partial ? partialObjectOf(obj, partial, r.served.definition.group) : obj, r.negotiated, {
    pretty: r.pretty,
  });
}
