// Create-only, never stored kinds (SelfSubjectAccessReview, SubjectAccessReview, SelfSubjectRulesReview, TokenReview):
// the body is decoded like any create, handed to the kind's review with the request's user, and the answer is 201.
import type { ApiObject } from '../apimachinery/meta/types';
import type { UserInfo } from '../apimachinery/user';
import { canonicalGroup } from '../apimachinery/schema/group-aliases';
import { goShape } from '../apimachinery/serializers/go-shape';
import type { ResourceDefinition } from '../registry/rest/resource';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceRequestInfo } from './request-info';
import type { Negotiated } from './negotiation';
import { bodyFormatOf, negotiateResponse } from './negotiation';
import { readBody } from './request-body';
import { decodeBody, fieldValidationDirective } from './decode-body';
import { parseWriteQuery } from './handlers/write-options';
import { writeResponse } from './handlers/write-response';

export interface ReviewResource {
  /** group (served name), version, resource, kind; the strategy gives scope and defaults. */
  definition: ResourceDefinition;
  /** The answered review (status filled); throws a StatusError for an invalid one. */
  review(obj: ApiObject, user: UserInfo): ApiObject | Promise<ApiObject>;
}

export class ReviewRegistry {
  readonly #byPath = new Map<string, ReviewResource>();

  add(resource: ReviewResource): void {
    const { group, version, resource: name } = resource.definition;
    this.#byPath.set(`${group}/${version}/${name}`, resource);
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
  const answered = await resource.review(object, r.user);
  const out = goShape({ ...answered, apiVersion: `${def.group}/${def.version}`, kind: def.kind });
  writeResponse(r.res, 201, out, r.negotiated, { pretty: r.pretty, warnings });
}
