// GET on a collection: a list (chunked with limit/continue), or a Table of it.
import type { ApiObject, ListMeta } from '../../apimachinery/meta/types';
import type { ListOutcome } from '../../registry/generic/list';
import type { ApiRequest } from './api-request';
import { requestNamespace } from './api-request';
import { negotiateResponse } from '../negotiation';
import { parseListParams } from './list-options';
import { writeJsonText, writeResponse } from './write-response';
import { servedJson } from '../../storage/stored-json';
import { parseIncludeObject, toTable } from '../table';

/** List items are written without kind/apiVersion, as Kubernetes does. */
function listItem(obj: ApiObject): ApiObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = obj;
  return rest as ApiObject; // only TypeMeta removed
}

export function listMetaOf(outcome: ListOutcome): ListMeta {
  const meta: ListMeta = { resourceVersion: outcome.resourceVersion };
  if (outcome.continue !== undefined) meta.continue = outcome.continue;
  if (outcome.remainingItemCount !== undefined) meta.remainingItemCount = outcome.remainingItemCount;
  return meta;
}

export function listBody(r: ApiRequest, outcome: ListOutcome): Record<string, unknown> {
  const def = r.served.definition;
  return {
    kind: def.listKind,
    apiVersion: def.group === '' ? def.version : `${def.group}/${def.version}`,
    metadata: listMetaOf(outcome),
    items: outcome.items.map(listItem),
  };
}

export async function handleList(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, true);
  const includeObject = r.negotiated.table ? parseIncludeObject(r.query.get('includeObject')) : 'Metadata';
  const params = parseListParams(r.query, { watch: false, listChunking: r.features.listChunking, selectors: r.served.selectors });
  const outcome = await r.store.list(requestNamespace(r), params);
  if (r.negotiated.table) {
    const def = r.served.definition;
    const items = outcome.items.map((o) => ({ ...o, apiVersion: def.group === '' ? def.version : `${def.group}/${def.version}`, kind: def.kind }));
    writeResponse(r.res, 200, toTable(items, def.strategy.table, listMetaOf(outcome), { request: r.negotiated.table, includeObject }), r.negotiated, { pretty: r.pretty });
    return;
  }
  if (r.negotiated.mediaType === 'application/json' && !r.pretty) {
    writeJsonText(r.res, 200, listJson(r, outcome));
    return;
  }
  writeResponse(r.res, 200, listBody(r, outcome), r.negotiated, { pretty: r.pretty });
}

/** The list as JSON text, reusing each item's stored bytes (serialize once). */
function listJson(r: ApiRequest, outcome: ListOutcome): string {
  const { items: _items, ...envelope } = listBody(r, { ...outcome, items: [] });
  const items = outcome.items.map((o) => servedJson(o, false) ?? JSON.stringify(listItem(o)));
  const head = JSON.stringify(envelope);
  return `${head.slice(0, -1)},"items":[${items.join(',')}]}`;
}
