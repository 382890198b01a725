// The one writer of errors: StatusErrors in the negotiated format; anything else is a bug, logged and answered 500.
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { internalError, isStatusError, type StatusError } from '../../apimachinery/errors';
import type { Negotiated } from '../negotiation';
import { encodeBody } from './write-response';

const FALLBACK: Negotiated = { mediaType: 'application/json' };

/** The failure Status each response was answered with, for its audit event's responseStatus. */
const writtenStatus = new WeakMap<ServerResponse, StatusError['status']>();

export function statusOfResponse(res: ServerResponse): StatusError['status'] | undefined {
  return writtenStatus.get(res);
}

export function writeError(
  res: ServerResponse,
  err: unknown,
  log: Logger,
  negotiated: Negotiated | undefined,
  pretty: boolean,
): void {
  let statusError = isStatusError(err) ? err : undefined;
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
  res.writeHead(status.code, headers);
  res.end(body);
}
