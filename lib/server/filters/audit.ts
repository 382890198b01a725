// The audit log (--audit-log-path): one audit.orch.io/v1 Event per request at level Metadata, written with pino on its own async destination.
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger } from 'pino';
import type { RequestInfo } from '../../endpoints/request-info';
import { statusOfResponse } from '../../endpoints/handlers/write-status';
import { goPathError } from '../go-path-error';
import { userInfoJson } from '../../apimachinery/user';
import { requestUser } from '../../endpoints/request-user';
import { impersonationOf } from './impersonation';

export interface AuditLog {
  write(event: Record<string, unknown>): void;
  /** Flushes and closes the destination. */
  close(): void;
}

/** Go's os.MkdirAll, one level at a time (Node's recursive mkdirSync never returns for some paths under /proc). */
function mkdirAll(dir: string, mode: number): void {
  const existing = statSync(dir, { throwIfNoEntry: false });
  if (existing?.isDirectory()) return;
  if (existing)
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), { syscall: 'mkdir', path: dir });
  const parent = dirname(dir);
  if (parent !== dir) mkdirAll(parent, mode);
  mkdirSync(dir, { mode });
}

/** Creates the audit log's directory (0700) and file (0600) if missing, failing start-up as kube-apiserver does (`ensureLogFile: …`). */
export function ensureAuditLogFile(path: string): void {
  try {
    mkdirAll(dirname(path), 0o700);
    closeSync(openSync(path, 'a', 0o600));
  } catch (err) {
    throw new Error(`ensureLogFile: ${goPathError(err)}`);
  }
}

/** `-` is stdout. Destination errors are logged once and the events dropped: auditing never fails a request. */
export function openAuditLog(path: string, log: Logger): AuditLog {
  const destination = pino.destination({ dest: path === '-' ? 1 : path, sync: false });
  let broken = false;
  destination.on('error', (err: Error) => {
    if (!broken) log.error({ err, path }, 'audit log destination failed; dropping audit events');
    broken = true;
  });
  // pino's level slot carries the event's leading TypeMeta and level (an empty one would leave a stray comma).
  const writer = pino(
    {
      base: null,
      timestamp: false,
      formatters: { level: () => ({ kind: 'Event', apiVersion: 'audit.orch.io/v1', level: 'Metadata' }) },
    },
    destination,
  );
  let closed = false;
  return {
    write(event) {
      if (broken || closed) return;
      try {
        writer.info(event);
      } catch (err) {
        broken = true;
        log.error({ err, path }, 'audit log write failed; dropping audit events');
      }
    },
    close() {
      if (closed) return;
      closed = true;
      try {
        destination.flushSync();
      } catch {
        // Nothing left to do for an already failed destination.
      }
      destination.end();
    },
  };
}

/** MicroTime: RFC 3339 with 6 fractional digits. */
export function microTime(epochMicros: number): string {
  const iso = new Date(Math.floor(epochMicros / 1000)).toISOString();
  return `${iso.slice(0, 19)}.${String(Math.floor(epochMicros % 1_000_000)).padStart(6, '0')}Z`;
}

function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

function sourceIPs(req: IncomingMessage): string[] {
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const remote = req.socket.remoteAddress;
  return remote && !forwarded.includes(remote) ? [...forwarded, remote] : forwarded;
}

function objectRef(info: RequestInfo): Record<string, string> | undefined {
  if (!info.isResourceRequest) return undefined;
  const ref = {
    resource: info.resource,
    namespace: info.namespace,
    name: info.name,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    subresource: info.subresource,
  };
  return Object.fromEntries(Object.entries(ref).filter(([, v]) => v !== ''));
}

/** The authenticated user: with impersonation the requestor, the impersonated user going in `impersonatedUser`. */
function userOf(req: IncomingMessage): Record<string, unknown> {
  const user = impersonationOf(req)?.requestor ?? requestUser(req);
  return user ? userInfoJson(user) : {};
}

/** audit.LogImpersonatedUser's field, set by the impersonation filter. */
function impersonatedUserOf(req: IncomingMessage): { impersonatedUser?: Record<string, unknown> } {
  const impersonation = impersonationOf(req);
  return impersonation ? { impersonatedUser: userInfoJson(impersonation.impersonated) } : {};
}

/**
 * Starts auditing one request: sets `Audit-Id` and writes the ResponseComplete event when the response ends.
 * Returns the annotations map filters may add to (deprecation) before then.
 */
export function auditRequest(
  audit: AuditLog | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  info: RequestInfo,
): Record<string, string> {
  const annotations: Record<string, string> = {};
  const auditID = randomUUID();
  res.setHeader('Audit-Id', auditID);
  if (!audit) return annotations;
  const received = microTime(nowMicros());
  res.once('close', () => {
    // kind, apiVersion and level (Metadata) are written by the audit log itself.
    const event: Record<string, unknown> = {
      auditID,
      stage: 'ResponseComplete',
      requestURI: req.url ?? '/',
      verb: info.verb,
      // A request whose credentials failed (401) has no user, as upstream's failed-authentication event.
      user: userOf(req),
      ...impersonatedUserOf(req),
      sourceIPs: sourceIPs(req),
      userAgent: req.headers['user-agent'] ?? '',
    };
    const ref = objectRef(info);
    if (ref) event['objectRef'] = ref;
    // A failure's Status contributes its bounded fields (audit.LogResponseObject); a success shows just its code.
    const status = statusOfResponse(res);
    event['responseStatus'] = status
      ? {
          metadata: {},
          status: status.status,
          message: status.message,
          reason: status.reason,
          details: status.details,
          code: status.code,
        }
      : { metadata: {}, code: res.statusCode };
    event['requestReceivedTimestamp'] = received;
    event['stageTimestamp'] = microTime(nowMicros());
    if (Object.keys(annotations).length > 0) event['annotations'] = annotations;
    audit.write(event);
  });
  return annotations;
}
