// What an authorizer decides on (k8s.io/apiserver authorizer.Attributes): who, which verb, on which resource or path.
import type { UserInfo } from '../../apimachinery/user';
import type { RequestInfo } from '../../endpoints/request-info';
import { parseFieldSelector } from '../../apimachinery/fields/selector';
import { isValidPathSegmentName } from '../../apimachinery/validation/names';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** Non-resource requests: the URL path. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

/** An exact `metadata.name=` requirement of a list/watch, as RequestInfoFactory takes it for the request's name. */
function nameFromFieldSelector(query: URLSearchParams): string {
  const text = query.get('fieldSelector');
  if (!text) return '';
  try {
    // Selectors naming other fields of the kind are rare here; they leave the name unset (the list's own check reports them).
    const name = parseFieldSelector(text).requiresExactMatch('metadata.name');
    return name !== undefined && isValidPathSegmentName(name).length === 0 ? name : '';
  } catch {
    return '';
  }
}

export function attributesOf(user: UserInfo, info: RequestInfo, query: URLSearchParams): Attributes {
  if (!info.isResourceRequest) {
    return {
      user,
      verb: info.verb,
      isResourceRequest: false,
      path: info.path,
      apiGroup: '',
      apiVersion: '',
      namespace: '',
      resource: '',
      subresource: '',
      name: '',
    };
  }
  const listing = (info.verb === 'list' || info.verb === 'watch') && info.name === '';
  return {
    user,
    verb: info.verb,
    isResourceRequest: true,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: listing ? nameFromFieldSelector(query) : info.name,
  };
}
