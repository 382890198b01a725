// URL + method → what the request addresses (kube-apiserver's RequestInfoFactory, with the same path rules).
import { parseQueryBool } from './query-bool';

/** `''` for a method RequestInfoFactory does not know (as Kubernetes); `proxy` only from the `/proxy/` path form. */
export type Verb =
  'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'proxy' | '';

export interface ResourceRequestInfo {
  isResourceRequest: true;
  path: string;
  verb: Verb;
  /** `api` or `apis` */
  apiPrefix: 'api' | 'apis';
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the subresource, if any (never served here: 404). */
  extraParts: string[];
  /** True for the deprecated `/watch/` path form. */
  watchPath: boolean;
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  path: string;
  /** Lower-cased HTTP method, as Kubernetes uses for non-resource verbs. */
  verb: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

/** Subresources of a namespace object, so `/api/v1/namespaces/x/status` is not read as a resource `status` in namespace x. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** `watch` query values that mean false; anything else (including a bare `?watch`) means true. */

/**
 * The request path with its %XX escapes decoded, as Go's url.URL.Path holds it (so `%2F` separates segments
 * and `%25` is a `%` in a name); undefined for a malformed escape, which Go's server refuses before routing.
 */
export function decodeRequestPath(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c !== 0x25) {
      bytes.push(c & 0xff); // Node hands over the request line's bytes one char each
      continue;
    }
    const hex = raw.slice(i + 1, i + 3);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  return Buffer.from(bytes).toString('utf8');
}

export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const nonResource: NonResourceRequestInfo = { isResourceRequest: false, path, verb: method.toLowerCase() };
  const parts = path.split('/').filter((p) => p !== '');
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource;
  let rest = parts.slice(1);
  let apiGroup = '';
  if (prefix === 'apis') {
    if (rest.length < 3) return nonResource; // /apis, /apis/{group}, /apis/{group}/{version}: discovery
    apiGroup = rest[0] ?? '';
    rest = rest.slice(1);
  } else if (rest.length < 2) {
    return nonResource; // /api, /api/v1
  }
  const apiVersion = rest[0] ?? '';
  rest = rest.slice(1);

  let watchPath = false;
  let proxyPath = false;
  // The special verbs of RequestInfoFactory: `/{prefix}/{version}/watch/…` and `/{prefix}/{version}/proxy/…`.
  if ((rest[0] === 'watch' || rest[0] === 'proxy') && rest.length >= 2) {
    watchPath = rest[0] === 'watch';
    proxyPath = rest[0] === 'proxy';
    rest = rest.slice(1);
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1] ?? '';
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2] ?? '')) rest = rest.slice(2);
  }
  const resource = rest[0] ?? '';
  const name = rest[1] ?? '';
  const subresource = rest[2] ?? '';
  const extraParts = rest.slice(3);

  let verb: Verb;
  switch (method.toUpperCase()) {
    case 'POST':
      verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      verb = name === '' ? 'list' : 'get';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name === '' ? 'deletecollection' : 'delete';
      break;
    default:
      verb = '';
  }
  if (proxyPath) verb = 'proxy';
  else if (watchPath) verb = 'watch';
  else if (verb === 'list' && parseQueryBool(query.get('watch'))) verb = 'watch';

  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    extraParts,
    watchPath,
  };
}
