// go-restful's route match for PATCH in 1.26: a body in a type outside the route's Consumes list never reaches the handler.
import { routeUnsupportedMediaType } from '../../apimachinery/errors';
import { negotiateResponse } from '../negotiation';
import type { ApiRequest } from './api-request';
import { routesOf } from '../routes/route-table';

/** go-restful's matchesContentType against the route's Consumes list: any comma-separated type, parameters cut, spaces trimmed, compared exactly. */
function routeConsumes(consumes: readonly string[], contentType: string | undefined): boolean {
  // A body without Content-Type is matched as application/octet-stream.
  return (contentType ?? '').split(',').some((part) => consumes.includes((part.split(';')[0] ?? '').trim()));
}

/**
 * Throws the router's `415: Unsupported Media Type` for a PATCH whose Content-Length is positive and whose type no
 * route consumes (before Accept is looked at). The Status is written in the type Accept negotiates, or as indented
 * JSON when it negotiates none (apiserver's serviceErrorHandler → ErrorNegotiated). Other PATCH bodies go on to the
 * handler, whose own 415 lists the patch types.
 */
export function rejectUnroutedPatch(r: ApiRequest): void {
  const length = Number(r.req.headers['content-length'] ?? 0);
  if (!(length > 0) || routeConsumes(routesOf(r.served).patchTypes, r.req.headers['content-type'])) return;
  try {
    r.negotiated = negotiateResponse(r.req.headers.accept, false);
  } catch {
    // Accept negotiates nothing: the error writer falls back to indented JSON.
  }
  throw routeUnsupportedMediaType();
}
