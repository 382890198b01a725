// POST serviceaccounts/{name}/token (TokenRequest, authentication.orch.io/v1 with the authentication.k8s.io name
// clients send): a signed token for an existing service account, never stored (pkg/registry/core/serviceaccount/storage/token.go).
import { badRequest, invalid, notFound } from '../../apimachinery/errors';
import type { FieldError } from '../../apimachinery/field/errors';
import { invalidValue } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import { isPlainObject } from '../../apimachinery/meta/types';
import { goShape } from '../../apimachinery/serializers/go-shape';
import type { ApiRequest } from '../../endpoints/handlers/api-request';
import { decodeBody, fieldValidationDirective } from '../../endpoints/decode-body';
import { bodyFormatOf, negotiateResponse } from '../../endpoints/negotiation';
import { readBody } from '../../endpoints/request-body';
import { parseWriteQuery } from '../../endpoints/handlers/write-options';
import { writeResponse } from '../../endpoints/handlers/write-response';
import { defaultStrategy } from '../../registry/rest/strategy';
import type { ResourceDefinition } from '../../registry/rest/resource';
import type { ServiceAccountTokens } from './service-account-tokens';

export const AUTHENTICATION_GROUP = 'authentication.orch.io';
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

const TOKEN_REQUEST: ResourceDefinition = {
  group: 'authentication.k8s.io',
  version: 'v1',
  resource: 'tokenrequests',
  kind: 'TokenRequest',
  listKind: 'TokenRequestList',
  shortNames: [],
  categories: [],
  strategy: { ...defaultStrategy },
};

/** schema.FromAPIVersionAndKind's group and version (an unparsable apiVersion leaves both empty). */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion };
  if (slashes === 1) {
    const [group = '', version = ''] = apiVersion.split('/');
    return { group, version };
  }
  return { group: '', version: '' };
}

/**
 * token.go binds a token to a Pod or Secret it reads first; neither is served here, so such a reference is that
 * object's 404 and any other kind token.go's 400: a bound request never gets an unbound token.
 */
function refuseBoundObject(ref: Record<string, unknown>): never {
  const kind = typeof ref['kind'] === 'string' ? ref['kind'] : '';
  const name = typeof ref['name'] === 'string' ? ref['name'] : '';
  const { group, version } = groupVersionOf(typeof ref['apiVersion'] === 'string' ? ref['apiVersion'] : '');
  if (group === '' && kind === 'Pod') throw notFound({ group: '', resource: 'pods' }, name);
  if (group === '' && kind === 'Secret') throw notFound({ group: '', resource: 'secrets' }, name);
  throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
}

export function tokenRequestHandler(tokens: ServiceAccountTokens): (r: ApiRequest) => Promise<void> {
  return async (r) => {
    r.negotiated = negotiateResponse(r.req.headers.accept, false);
    const options = parseWriteQuery(r.query, 'CreateOptions');
    const body = await readBody(r.req);
    const directive = fieldValidationDirective(options.fieldValidation, r.features.serverSideFieldValidation !== false);
    const { object } = decodeBody(
      body,
      bodyFormatOf(r.req.headers['content-type']),
      TOKEN_REQUEST,
      (v, k) => r.registry.isKnownKind(v, k),
      directive,
    );
    const { name, namespace } = r.info;
    const spec = isPlainObject(object['spec']) ? object['spec'] : {};
    const expirationSeconds =
      typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] : DEFAULT_EXPIRATION_SECONDS;
    const errs: FieldError[] = [];
    if (object.metadata.name && object.metadata.name !== name)
      errs.push(
        invalidValue(
          FieldPath.root('metadata', 'name'),
          object.metadata.name,
          'must match the service account name if specified',
        ),
      );
    if (object.metadata.namespace && object.metadata.namespace !== namespace)
      errs.push(
        invalidValue(
          FieldPath.root('metadata', 'namespace'),
          object.metadata.namespace,
          'must match the service account namespace if specified',
        ),
      );
    if (errs.length === 0) {
      if (expirationSeconds < MIN_EXPIRATION_SECONDS)
        errs.push(
          invalidValue(
            FieldPath.root('spec', 'expirationSeconds'),
            expirationSeconds,
            'may not specify a duration less than 10 minutes',
          ),
        );
      if (expirationSeconds > MAX_EXPIRATION_SECONDS)
        errs.push(
          invalidValue(
            FieldPath.root('spec', 'expirationSeconds'),
            expirationSeconds,
            'may not specify a duration larger than 2^32 seconds',
          ),
        );
    }
    if (errs.length > 0) throw invalid({ group: AUTHENTICATION_GROUP, kind: 'TokenRequest' }, name, errs);
    const sa = await r.store.get(namespace, name); // 404 serviceaccounts "<name>" not found
    if (spec['boundObjectRef'] !== undefined && spec['boundObjectRef'] !== null)
      refuseBoundObject(isPlainObject(spec['boundObjectRef']) ? spec['boundObjectRef'] : {});
    const requested = Array.isArray(spec['audiences']) ? (spec['audiences'] as string[]) : [];
    const audiences = requested.length > 0 ? requested : [...tokens.apiAudiences];
    const { token, expires } = await tokens.issue(
      { namespace, name, uid: sa.metadata.uid ?? '' },
      audiences,
      expirationSeconds,
    );
    const apiVersion = object.apiVersion ?? `${TOKEN_REQUEST.group}/v1`;
    const out = goShape({
      apiVersion,
      kind: 'TokenRequest',
      metadata: { name, namespace, creationTimestamp: null },
      spec: { audiences, expirationSeconds, boundObjectRef: spec['boundObjectRef'] ?? null },
      status: { token, expirationTimestamp: expires.toISOString().replace(/\.\d+Z$/, 'Z') },
    } as never);
    writeResponse(r.res, 201, out, r.negotiated, { pretty: r.pretty });
  };
}
