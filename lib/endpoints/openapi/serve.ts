// HTTP for /openapi/v2 and /openapi/v3[/<group-version>], as kube-openapi's handlers answer: ETag, If-None-Match → 304,
// `?hash=` of the current document → cacheable forever, of an older one → 301 to the current URL; v2 in JSON or gnostic
// protobuf, v3 in JSON (406 otherwise).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { openApiDocuments, v3Url, type RenderedDocument } from './documents';

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

const JSON_TYPE = 'application/json';
/** What kube-openapi answers protobuf requests for /openapi/v2 with, whichever of its two spellings was asked for. */
export const V2_PROTOBUF_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The older spelling client-go (kubectl ≤ 1.28) sends in `Accept`. */
const V2_PROTOBUF_DEPRECATED_TYPE = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/**
 * The first of `offered` matched by the best Accept clause (highest q, then most specific, as goautoneg sorts them
 * for kube-openapi's handler); undefined → 406. Clauses with q=0 match nothing.
 */
export function negotiateOpenApi(accept: string | undefined, offered: readonly string[]): string | undefined {
  const clauses = (accept === undefined || accept.trim() === '' ? '*/*' : accept)
    .split(',')
    .map((clause) => {
      const [range = '', ...params] = clause.split(';').map((p) => p.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      const [type = '', subtype = ''] = range.split('/');
      return { type, subtype, q: q === undefined ? 1 : Number(q.slice(2)) || 0 };
    })
    .filter((c) => c.q > 0)
    .sort(
      (a, b) =>
        b.q - a.q ||
        Number(b.type !== '*') + Number(b.subtype !== '*') - Number(a.type !== '*') - Number(a.subtype !== '*'),
    );
  for (const { type, subtype } of clauses) {
    const match = offered.find((media) => {
      const [t, s] = media.split('/');
      return (type === '*' || type === t) && (subtype === '*' || subtype === s);
    });
    if (match !== undefined) return match;
  }
  return undefined;
}

function notModified(req: IncomingMessage, doc: RenderedDocument): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === `"${doc.etag}"`;
  });
}

function writeDocument(
  req: IncomingMessage,
  res: ServerResponse,
  doc: RenderedDocument,
  headers: Record<string, string>,
  contentType = JSON_TYPE,
): void {
  const all = { ...headers, ETag: `"${doc.etag}"`, 'Last-Modified': doc.lastModified.toUTCString() };
  if (notModified(req, doc)) {
    res.writeHead(304, all);
    res.end();
    return;
  }
  res.writeHead(200, { ...all, 'Content-Type': contentType, 'Content-Length': String(doc.body.length) });
  res.end(req.method === 'HEAD' ? undefined : doc.body);
}

function writeNotAcceptable(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(406, headers);
  res.end();
}

/**
 * Serves an `/openapi/...` path (split into parts); false when the path names no document, so the caller
 * answers its 404.
 */
export function serveOpenApi(
  registry: ResourceRegistry,
  req: IncomingMessage,
  res: ServerResponse,
  parts: readonly string[],
  query: URLSearchParams,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const docs = openApiDocuments(registry);
  const vary = { Vary: 'Accept' };
  if (parts[1] === 'v2' && parts.length === 2) {
    const media = negotiateOpenApi(req.headers.accept, [JSON_TYPE, V2_PROTOBUF_DEPRECATED_TYPE, V2_PROTOBUF_TYPE]);
    if (media === undefined) writeNotAcceptable(res, vary);
    else if (media === JSON_TYPE) writeDocument(req, res, docs.v2(), vary);
    else writeDocument(req, res, docs.v2Protobuf(), vary, V2_PROTOBUF_TYPE);
    return true;
  }
  if (parts[1] !== 'v3') return false;
  if (parts.length === 2) {
    writeDocument(req, res, docs.v3Root(), {});
    return true;
  }
  const key = parts.slice(2).join('/');
  const doc = docs.v3(key);
  if (!doc) return false;
  if (negotiateOpenApi(req.headers.accept, [JSON_TYPE]) === undefined) {
    writeNotAcceptable(res, vary);
    return true;
  }
  const hash = query.get('hash') ?? '';
  if (hash !== '' && hash !== doc.etag) {
    res.writeHead(301, { ...vary, Location: v3Url(key, doc.etag) });
    res.end();
    return true;
  }
  const caching: Record<string, string> =
    hash === ''
      ? {}
      : { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + ONE_YEAR_MS).toUTCString() };
  writeDocument(req, res, doc, { ...vary, ...caching });
  return true;
}
