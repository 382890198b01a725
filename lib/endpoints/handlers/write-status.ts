// The one writer of errors: StatusErrors in the negotiated format; anything else is a bug, logged and answered 500.
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { internalError, isStatusError, type StatusError } from '../../apimachinery/errors';
import type { Negotiated } from '../negotiation';
import { bodyForHead, encodeBody } from './write-response';

const FALLBACK: Negotiated = { mediaType: 'application/json' };

/** The failure Status each response was answered with, for its audit event's responseStatus. */
const writtenStatus = new WeakMap<ServerResponse, StatusError['status']>();

export function statusOfResponse(res: ServerResponse): StatusError['status'] | undefined {
  return writtenStatus.get(res);
}

/** What Go's net/http and Node both write: 100–999. */
function isWritableStatusCode(code: number): boolean {
  return Number.isInteger(code) && code >= 100 && code <= 999;
}

export function writeError(
  res: ServerResponse,
  err: unknown,
  log: Logger,
  negotiated: Negotiated | undefined,
  pretty: boolean,
): void {
  let statusError = isStatusError(err) ? err : undefined;
  if (statusError && !isWritableStatusCode(statusError.code)) {
    // A code from outside (an admission webhook's denial) that HTTP cannot carry: Go's WriteHeader panics on it and
    // kube-apiserver's panic filter answers 500; here the request fails the same way and the server stays up.
    log.error({ err, code: statusError.code }, 'request failed with a status code HTTP cannot carry');
    statusError = internalError(new Error(`status code ${statusError.code} is not a valid HTTP status code`));
  }
  if (!statusError) {
    log.error({ err }, 'unhandled error while serving request');
    statusError = internalError(err);
  } else if (statusError.code >= 500 && !statusError.reported) {
    log.error({ err, code: statusError.code }, 'request failed');
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const status = statusError.status;
  writtenStatus.set(res, status);
  const { body, contentType } = encodeBody(status, negotiated ?? FALLBACK, pretty || negotiated === undefined);
  const headers: Record<string, string | number> = {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
  };
  const retryAfter = status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0) headers['Retry-After'] = String(retryAfter);
  if (status.code === 403) headers['X-Content-Type-Options'] = 'nosniff';
  const sent = bodyForHead(res, undefined, body);
  res.writeHead(status.code, headers);
  res.end(sent);
}
