// HTTP for /openapi/v2 and /openapi/v3[/<group-version>], as kube-openapi's handlers answer: ETag, If-None-Match → 304,
// `?hash=` of the current document → cacheable forever, of an older one → 301 to the current URL; JSON only (406 otherwise).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { openApiDocuments, v3Url, type RenderedDocument } from './documents';

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * True when some Accept clause with q > 0 allows `application/json`, the one representation served: the
 * protobuf forms kubectl may ask for (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`) get 406.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((clause) => {
    const [range = '', ...params] = clause.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return range === '*/*' || range === 'application/*' || range === 'application/json';
  });
}

function notModified(req: IncomingMessage, doc: RenderedDocument): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === `"${doc.etag}"`;
  });
}

function writeDocument(req: IncomingMessage, res: ServerResponse, doc: RenderedDocument, headers: Record<string, string>): void {
  const all = { ...headers, ETag: `"${doc.etag}"`, 'Last-Modified': doc.lastModified.toUTCString() };
  if (notModified(req, doc)) {
    res.writeHead(304, all);
    res.end();
    return;
  }
  res.writeHead(200, { ...all, 'Content-Type': 'application/json', 'Content-Length': String(doc.body.length) });
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
export function serveOpenApi(registry: ResourceRegistry, req: IncomingMessage, res: ServerResponse, parts: readonly string[], query: URLSearchParams): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const docs = openApiDocuments(registry);
  const vary = { Vary: 'Accept' };
  if (parts[1] === 'v2' && parts.length === 2) {
    if (!acceptsJson(req.headers.accept)) writeNotAcceptable(res, vary);
    else writeDocument(req, res, docs.v2(), vary);
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
  if (!acceptsJson(req.headers.accept)) {
    writeNotAcceptable(res, vary);
    return true;
  }
  const hash = query.get('hash') ?? '';
  if (hash !== '' && hash !== doc.etag) {
    res.writeHead(301, { ...vary, Location: v3Url(key, doc.etag) });
    res.end();
    return true;
  }
  const caching: Record<string, string> = hash === '' ? {} : { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + ONE_YEAR_MS).toUTCString() };
  writeDocument(req, res, doc, { ...vary, ...caching });
  return true;
}
