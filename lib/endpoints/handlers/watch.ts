// Watch: a chunked 200 stream of {type, object} lines. Where it starts follows the resourceVersion table
// (see registry/generic/client-watch.ts); events come from the resource's watch cache.
import { badRequest } from '../../apimachinery/errors';
import type { ApiRequest } from './api-request';
import { asServed, requestNamespace, toStorage } from './api-request';
import { parseIntegerParam, parseListParams } from './list-options';
import { isProtobuf, negotiateWatch, watchContentType } from '../negotiation';
import { parseIncludeObject, toTable } from '../table';
import { asPartialObject } from '../partial-object-metadata';
import { parseQueryBool } from '../query-bool';
import { WatchStream } from './watch-stream';
import { signalWatchInitialized } from './watch-init-signal';
import type { ApiObject } from '../../apimachinery/meta/types';
import { convertObject } from '../../apis/conversion';
import { conversionsOf } from '../../apis/conversions';
import { goShape } from '../../apimachinery/serializers/go-shape';
import { apiVersionOf } from '../../apimachinery/schema/group-version';

/** Without timeoutSeconds a watch lasts a random 30–60 minutes (kube-apiserver's min-request-timeout rule). */
const MIN_REQUEST_TIMEOUT_SECONDS = 1800;
/** Like kube-apiserver, a last BOOKMARK goes out this long before the watch's deadline. */
const FINAL_BOOKMARK_LEAD_MS = 2000;

/** A watch on one object by name becomes a `metadata.name` field selector (400 when another name is selected). */
function pinName(r: ApiRequest): void {
  if (r.info.name === '') return;
  const pinned = r.query.get('fieldSelector');
  const byName = `metadata.name=${r.info.name}`;
  if (pinned && pinned !== byName && !pinned.split(',').includes(byName))
    throw badRequest("fieldSelector metadata.name doesn't match requested name");
  r.query.set('fieldSelector', pinned ? `${pinned},${byName}` : byName);
}

/** asServed with the kind's conversions looked up once: it runs for every event of every watcher. */
function servedForm(r: ApiRequest): (obj: ApiObject) => ApiObject {
  const def = r.served.definition;
  const conversions = conversionsOf(def.group, def.kind);
  const apiVersion = apiVersionOf(def);
  return (obj) =>
    obj.apiVersion === apiVersion && obj.kind === def.kind
      ? obj
      : convertObject(conversions, obj, def.group, def.kind, def.version);
}

export async function handleWatch(r: ApiRequest): Promise<void> {
  const negotiated = negotiateWatch(r.req.headers.accept, true);
  const table = negotiated.table;
  const includeObject = table ? parseIncludeObject(r.query.get('includeObject')) : 'Metadata';
  r.negotiated = negotiated;
  pinName(r);
  const params = parseListParams(r.query, {
    watch: true,
    listChunking: false,
    selectors: r.served.selectors,
    watchList: r.features.watchList !== false,
  });
  const timeoutSeconds = parseIntegerParam(r.query.get('timeoutSeconds'));
  const bookmarks = parseQueryBool(r.query.get('allowWatchBookmarks'));
  const kind = r.served.definition.kind;
  const apiVersion = asServed(r, { metadata: {} }).apiVersion;
  const partial = negotiated.partial;
  const served = servedForm(r);
  // An empty object of the kind as Go writes one (zero values included), carrying only the resourceVersion.
  const emptyObject = (resourceVersion: string, annotations?: Record<string, string>): ApiObject =>
    goShape({
      kind,
      apiVersion,
      metadata: annotations ? { resourceVersion, annotations } : { resourceVersion },
    }) as ApiObject;

  const stream = new WatchStream({
    res: r.res,
    log: r.log,
    // Kubernetes transforms every event's object, bookmarks included (PartialObjectMetadata of the empty object).
    serve: partial ? (obj) => asPartialObject(served(obj), partial) as ApiObject : served,
    bookmarkObject: (resourceVersion, annotations) =>
      partial
        ? asPartialObject(emptyObject(resourceVersion, annotations), partial)
        : emptyObject(resourceVersion, annotations),
    bookmarks,
    contentType: watchContentType(negotiated),
    protobuf: isProtobuf(negotiated.mediaType),
    ...(table || partial ? {} : { shareKey: `${apiVersion}/${kind}|${watchContentType(negotiated)}` }),
    ...(table
      ? {
          table: {
            key: `${table.group}/${table.version}/${includeObject}`,
            render: (obj, first) =>
              toTable(
                [obj],
                r.served.definition.strategy.table,
                { resourceVersion: obj.metadata.resourceVersion ?? '' },
                { request: table, includeObject, withoutColumns: !first, cellsFrom: (o) => toStorage(r, o) },
              ),
          },
        }
      : {}),
  });
  const { initial, watch, expired, initialEventsEnd } = await r.store.startWatch(requestNamespace(r), params, stream);
  // A PartialObjectMetadataList watch: kube-apiserver cannot transform the first object and ends the stream there.
  stream.begin(partial?.list ? [] : initial, partial?.list ? undefined : initialEventsEnd);
  signalWatchInitialized(r.res);
  if (expired) {
    stream.fail(expired);
    return;
  }

  // A negative timeoutSeconds is a deadline already past: kube-apiserver ends the stream at once.
  const seconds =
    timeoutSeconds === undefined || timeoutSeconds === 0
      ? MIN_REQUEST_TIMEOUT_SECONDS * (1 + Math.random())
      : Math.max(timeoutSeconds, 0);
  await new Promise<void>((resolve) => {
    const deadline = setTimeout(() => r.res.end(), partial?.list ? 0 : seconds * 1000);
    const lastBookmark =
      bookmarks && seconds * 1000 > FINAL_BOOKMARK_LEAD_MS
        ? setTimeout(() => stream.bookmark(watch.revision), seconds * 1000 - FINAL_BOOKMARK_LEAD_MS)
        : undefined;
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      clearTimeout(lastBookmark);
      watch.stop(stream.cutOff);
      resolve();
    };
    if (r.res.writableEnded || r.res.destroyed) finish();
    else {
      r.res.once('close', finish);
      r.res.once('finish', finish);
      stream.whenCutOff(finish);
    }
  });
}
