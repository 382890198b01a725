// Constructors named after Status reasons; messages follow k8s.io/apimachinery/pkg/api/errors.
import { StatusError } from './status-error';
import type { StatusCause, StatusDetails, StatusReason } from './status';
import type { FieldError } from '../field/errors';
import { aggregateFieldErrors, fieldErrorToCause } from '../field/errors';

/** A group plus a resource (plural) or kind, as Kubernetes' GroupResource / GroupKind. */
export interface GroupResource {
  group: string;
  resource: string;
}
export interface GroupKind {
  group: string;
  kind: string;
}

/** `deployments.apps`, `namespaces` (core group has no suffix). */
function qualifiedResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** `Deployment.apps`, `Namespace`. */
function qualifiedKind(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

function resourceDetails(gr: GroupResource, name: string): StatusDetails {
  const details: StatusDetails = {};
  if (name !== '') details.name = name;
  if (gr.group !== '') details.group = gr.group;
  details.kind = gr.resource;
  return details;
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, resourceDetails(gr, name));
}

/** 404 for a path under a served group/version that names no resource (empty details object). */
export function resourceNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function alreadyExists(gr: GroupResource, name: string, prefix = ''): StatusError {
  return new StatusError(
    409,
    'AlreadyExists',
    `${prefix}${qualifiedResource(gr)} "${name}" already exists`,
    resourceDetails(gr, name),
  );
}

export function generateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  const details = resourceDetails(gr, name);
  details.retryAfterSeconds = retryAfterSeconds;
  return new StatusError(
    409,
    'AlreadyExists',
    `${qualifiedResource(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
    details,
  );
}

export const OBJECT_MODIFIED_TEXT =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict: `Operation cannot be fulfilled on <gr> "<name>": <reason>`. */
export function conflict(gr: GroupResource, name: string, reason: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${reason}`,
    resourceDetails(gr, name),
  );
}

/** 409 Conflict named by kind, as delete preconditions are (`Deployment.apps`). */
export function conflictOnKind(gk: GroupKind, name: string, reason: string): StatusError {
  const details: StatusDetails = { name };
  if (gk.group !== '') details.group = gk.group;
  details.kind = gk.kind;
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedKind(gk)} "${name}": ${reason}`,
    details,
  );
}

/** Server-side apply's 409 Conflict: one FieldManagerConflict cause per conflicting field (NewApplyConflict). */
export function applyConflict(message: string, causes: StatusCause[]): StatusError {
  return new StatusError(409, 'Conflict', message, { causes });
}

/** 422 Invalid with one cause per field error. */
export function invalid(gk: GroupKind, name: string, errors: readonly FieldError[]): StatusError {
  const causes: StatusCause[] = errors.map(fieldErrorToCause);
  const details: StatusDetails = { name, group: gk.group, kind: gk.kind, causes };
  if (name === '') delete details.name;
  if (gk.group === '') delete details.group;
  return new StatusError(
    422,
    'Invalid',
    `${qualifiedKind(gk)} "${name}" is invalid: ${aggregateFieldErrors(errors)}`,
    details,
  );
}

/** 422 Invalid naming no object: NewGenericServerResponse(422)'s shape (`message` as given, empty details). */
export function invalidRequest(message: string): StatusError {
  return new StatusError(422, 'Invalid', message, {});
}

export function forbidden(gr: GroupResource, name: string, reason: string): StatusError {
  const subject = name === '' ? qualifiedResource(gr) : `${qualifiedResource(gr)} "${name}"`;
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${reason}`, resourceDetails(gr, name));
}

/** 401: the credentials presented did not authenticate (or none were, with anonymous requests off). */
export function unauthorized(message = 'Unauthorized'): StatusError {
  return new StatusError(401, 'Unauthorized', message);
}

/** 403 for a request naming no resource (a non-resource URL): `forbidden: <reason>`, empty details. */
export function forbiddenNonResource(reason: string): StatusError {
  return new StatusError(403, 'Forbidden', `forbidden: ${reason}`, {});
}

export function badRequest(message: string, cause?: unknown): StatusError {
  return new StatusError(400, 'BadRequest', message, undefined, cause === undefined ? undefined : { cause });
}

export function methodNotAllowed(): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
    {},
  );
}

export function notAcceptable(message: string): StatusError {
  return new StatusError(406, 'NotAcceptable', message);
}

export function unsupportedMediaType(message: string): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', message);
}

/** go-restful's 415 for a body no route consumes, as apiserver's serviceErrorHandler writes it (its text, empty details). */
export function routeUnsupportedMediaType(): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', '415: Unsupported Media Type', {});
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

export function resourceExpired(message: string, continueToken?: string): StatusError {
  return new StatusError(
    410,
    'Expired',
    message,
    undefined,
    continueToken === undefined ? undefined : { continueToken },
  );
}

export function timeout(message: string, retryAfterSeconds: number, causes?: StatusCause[]): StatusError {
  const details: StatusDetails | undefined =
    retryAfterSeconds > 0 || causes
      ? { ...(causes ? { causes } : {}), ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}) }
      : undefined;
  return new StatusError(504, 'Timeout', `Timeout: ${message}`, details);
}

/** 500 ServerTimeout: etcd could not be reached for an operation. */
export function serverTimeout(gr: GroupResource, operation: string, retryAfterSeconds: number): StatusError {
  const details: StatusDetails = { name: operation };
  if (gr.group !== '') details.group = gr.group;
  details.kind = gr.resource;
  details.retryAfterSeconds = retryAfterSeconds;
  return new StatusError(
    500,
    'ServerTimeout',
    `The ${operation} operation against ${qualifiedResource(gr)} could not be completed at this time, please try again.`,
    details,
  );
}

export function internalError(err: unknown): StatusError {
  const text = err instanceof Error ? err.message : String(err);
  return new StatusError(
    500,
    'InternalError',
    `Internal error occurred: ${text}`,
    { causes: [{ message: text }] },
    { cause: err },
  );
}

/** A 500 without a reason (StatusReasonUnknown), as a Go error that is not an APIStatus reaches a client. */
export function unknownError(message: string): StatusError {
  return new StatusError(500, undefined, message);
}

/** The Status another server (an admission webhook) answered with, passed on as it is (code, reason, details). */
export function fromStatus(
  code: number,
  reason: StatusReason | undefined,
  message: string,
  details?: StatusDetails,
): StatusError {
  return new StatusError(code, reason, message, details);
}
