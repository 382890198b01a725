// Create-only, never stored kinds (SelfSubjectAccessReview, SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectRulesReview, TokenReview): the body is decoded like any create (system metadata wiped, the namespace
// taken from the path, managedFields recorded), handed to the kind's review with the request's user, and the answer is 201.
import type { ApiObject } from '../apimachinery/meta/types';
import type { UserInfo } from '../apimachinery/user';
import { canonicalGroup } from '../apimachinery/schema/group-aliases';
import { goShape } from '../apimachinery/serializers/go-shape';
import type { ResourceDefinition } from '../registry/rest/resource';
import type { ResourceRegistry } from '../registry/resource-registry';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceRequestInfo } from './request-info';
import type { Negotiated } from './negotiation';
import { bodyFormatOf, negotiateResponse } from './negotiation';
import { readBody } from './request-body';
import { decodeBody, fieldValidationDirective } from './decode-body';
import { parseWriteQuery } from './handlers/write-options';
import { writeResponse } from './handlers/write-response';
import { ensureRequestNamespace, wipeSystemMetadata } from '../registry/generic/system-metadata';
import { fieldManagerScopeOf } from '../registry/generic/internal-field-manager';
import { updateManagedFields } from '../apimachinery/managed-fields';
import { managerOrUserAgent } from './handlers/field-manager';

export interface ReviewResource {
  /** group (served name), version, resource, kind; the strategy gives scope and defaults. */
  definition: ResourceDefinition;
  /** The answered review (status filled); throws a StatusError for an invalid one. */
  review(obj: ApiObject, user: UserInfo): ApiObject | Promise<ApiObject>;
}

export class ReviewRegistry {
  readonly #byPath = new Map<string, ReviewResource>();

  /** `listing`: the registry whose discovery and OpenAPI documents list the reviews added here. */
  constructor(private readonly listing?: ResourceRegistry) {}

  add(resource: ReviewResource): void {
    const { group, version, resource: name } = resource.definition;
    this.#byPath.set(`${group}/${version}/${name}`, resource);
    this.listing?.addCreateOnly(resource.definition);
  }

  /** Either group name (`authorization.k8s.io` reaches `authorization.orch.io`). */
  lookup(group: string, version: string, resource: string): ReviewResource | undefined {
    return this.#byPath.get(`${canonicalGroup(group)}/${version}/${resource}`);
  }

  servesGroupVersion(group: string, version: string): boolean {
    const prefix = `${canonicalGroup(group)}/${version}/`;
    return [...this.#byPath.keys()].some((k) => k.startsWith(prefix));
  }

  all(): ReviewResource[] {
    return [...this.#byPath.values()];
  }
}

/** ObjectMeta's fields in the order encoding/json writes them (a review's creationTimestamp is the zero time: null). */
const OBJECT_META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;

function inGoOrder(metadata: ApiObject['metadata']): ApiObject['metadata'] {
  const source: Record<string, unknown> = { creationTimestamp: null, ...metadata };
  const ordered: Record<string, unknown> = {};
  for (const key of OBJECT_META_ORDER) if (source[key] !== undefined) ordered[key] = source[key];
  return ordered as ApiObject['metadata'];
}

export interface ReviewRequest {
  req: IncomingMessage;
  res: ServerResponse;
  info: ResourceRequestInfo;
  query: URLSearchParams;
  pretty: boolean;
  user: UserInfo;
  negotiated?: Negotiated;
}

/** POST of a review: decoded against the kind as addressed (either group name), answered in that group's name. */
export async function handleReview(
  r: ReviewRequest,
  resource: ReviewResource,
  serverSideFieldValidation: boolean,
  isKnownKind: (apiVersion: string, kind: string) => boolean,
): Promise<void> {
  r.negotiated = negotiateResponse(r.req.headers.accept, false);
  const options = parseWriteQuery(r.query, 'CreateOptions');
  const def: ResourceDefinition = { ...resource.definition, group: r.info.apiGroup };
  const body = await readBody(r.req);
  const directive = fieldValidationDirective(options.fieldValidation, serverSideFieldValidation);
  const { object, warnings } = decodeBody(
    body,
    bodyFormatOf(r.req.headers['content-type']),
    def,
    isKnownKind,
    directive,
  );
  def.strategy.applyDefaults(object);
  object.metadata ??= {};
  wipeSystemMetadata(object);
  ensureRequestNamespace(object, def.strategy.namespaced, r.info.namespace);
  // As for any create, the request's fields are recorded as its manager's (an Update), and come back in the answer.
  const manager = managerOrUserAgent(options.fieldManager, r.req.headers['user-agent']);
  updateManagedFields(undefined, object, manager, fieldManagerScopeOf(def, ''));
  const answered = await resource.review(object, r.user);
  // Go's field order: kind, apiVersion (TypeMeta), metadata, then the kind's own fields.
  const { kind: _kind, apiVersion: _apiVersion, metadata, ...fields } = answered;
  const out = goShape({
    kind: def.kind,
    apiVersion: `${def.group}/${def.version}`,
    metadata: inGoOrder(metadata ?? {}),
    ...fields,
  });
  writeResponse(r.res, 201, out, r.negotiated, { pretty: r.pretty, warnings });
}
