// DELETE on a collection: delete every match and answer with the list as it was read.
import type { ApiRequest } from './api-request';
import { requestNamespace } from './api-request';
import { negotiateResponse } from '../negotiation';
import { readDeleteOptions } from './delete-options';
import { parseListParams } from './list-options';
import { listBody } from './list';
import { writeResponse } from './write-response';

export async function handleDeleteCollection(r: ApiRequest): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const params = parseListParams(r.query, {
    watch: false,
    listChunking: r.features.listChunking,
    selectors: r.served.selectors,
    watchList: r.features.watchList !== false,
  });
  const options = await readDeleteOptions(r, false);
  const outcome = await r.store.deleteCollection(requestNamespace(r), params, options, {
    dryRun: (options.dryRun ?? []).length > 0,
    context: r.context,
  });
  writeResponse(r.res, 200, listBody(r, outcome), r.negotiated, { pretty: r.pretty });
}
