#!/usr/bin/env python3
"""Writes the catalog entries of the auth kinds the shared type catalog lacks (k8s.io/api v0.26.15
authorization/v1, authentication/v1, core/v1 ServiceAccount): field numbers and names from their generated.proto,
JSON names, omitempty and pointers from the types.go struct tags. Output: the schema catalog supplement and the
protobuf serializer's supplement (same formats as k8s-1.26-types.json and protobuf/catalog.json)."""
import json, sys

META = 'k8s.io.apimachinery.pkg.apis.meta.v1'
OM = f'{META}.ObjectMeta'
LM = f'{META}.ListMeta'
TIME = f'{META}.Time'
Z = 'k8s.io.api.authorization.v1'
N = 'k8s.io.api.authentication.v1'
C = 'k8s.io.api.core.v1'
SCALAR_JSON = {'string': 'string', 'bool': 'boolean', 'int64': 'integer', 'int32': 'integer'}

# message: (root?, [(name, number, type, repeated, mapValue, omitempty, pointer, goType)])
def f(name, number, typ, go, omitempty=True, repeated=False, map_value=None, pointer=False):
    return dict(name=name, number=number, type=typ, repeated=repeated, map_value=map_value, omitempty=omitempty, pointer=pointer, go=go)

def meta(n=1):
    return f('metadata', n, OM, 'v1.ObjectMeta')

def review(pkg, spec, status, status_omitempty=True):
    return [meta(), f('spec', 2, f'{pkg}.{spec}', f'v1.{spec}', omitempty=False), f('status', 3, f'{pkg}.{status}', f'v1.{status}', omitempty=status_omitempty)]

MESSAGES = {
    f'{Z}.ExtraValue': ('array', [f('items', 1, 'string', '', repeated=True)]),
    f'{Z}.ResourceAttributes': (None, [f('namespace', 1, 'string', 'string'), f('verb', 2, 'string', 'string'), f('group', 3, 'string', 'string'), f('version', 4, 'string', 'string'), f('resource', 5, 'string', 'string'), f('subresource', 6, 'string', 'string'), f('name', 7, 'string', 'string')]),
    f'{Z}.NonResourceAttributes': (None, [f('path', 1, 'string', 'string'), f('verb', 2, 'string', 'string')]),
    f'{Z}.SubjectAccessReviewSpec': (None, [f('resourceAttributes', 1, f'{Z}.ResourceAttributes', '*v1.ResourceAttributes', pointer=True), f('nonResourceAttributes', 2, f'{Z}.NonResourceAttributes', '*v1.NonResourceAttributes', pointer=True), f('user', 3, 'string', 'string'), f('groups', 4, 'string', '[]string', repeated=True), f('extra', 5, None, 'map[string]v1.ExtraValue', map_value=f'{Z}.ExtraValue'), f('uid', 6, 'string', 'string')]),
    f'{Z}.SelfSubjectAccessReviewSpec': (None, [f('resourceAttributes', 1, f'{Z}.ResourceAttributes', '*v1.ResourceAttributes', pointer=True), f('nonResourceAttributes', 2, f'{Z}.NonResourceAttributes', '*v1.NonResourceAttributes', pointer=True)]),
    f'{Z}.SubjectAccessReviewStatus': (None, [f('allowed', 1, 'bool', 'bool', omitempty=False), f('denied', 4, 'bool', 'bool'), f('reason', 2, 'string', 'string'), f('evaluationError', 3, 'string', 'string')]),
    f'{Z}.SelfSubjectRulesReviewSpec': (None, [f('namespace', 1, 'string', 'string')]),
    f'{Z}.ResourceRule': (None, [f('verbs', 1, 'string', '[]string', omitempty=False, repeated=True), f('apiGroups', 2, 'string', '[]string', repeated=True), f('resources', 3, 'string', '[]string', repeated=True), f('resourceNames', 4, 'string', '[]string', repeated=True)]),
    f'{Z}.NonResourceRule': (None, [f('verbs', 1, 'string', '[]string', omitempty=False, repeated=True), f('nonResourceURLs', 2, 'string', '[]string', repeated=True)]),
    f'{Z}.SubjectRulesReviewStatus': (None, [f('resourceRules', 1, f'{Z}.ResourceRule', '[]v1.ResourceRule', omitempty=False, repeated=True), f('nonResourceRules', 2, f'{Z}.NonResourceRule', '[]v1.NonResourceRule', omitempty=False, repeated=True), f('incomplete', 3, 'bool', 'bool', omitempty=False), f('evaluationError', 4, 'string', 'string')]),
    f'{Z}.SubjectAccessReview': ('root', review(Z, 'SubjectAccessReviewSpec', 'SubjectAccessReviewStatus')),
    f'{Z}.SelfSubjectAccessReview': ('root', review(Z, 'SelfSubjectAccessReviewSpec', 'SubjectAccessReviewStatus')),
    f'{Z}.LocalSubjectAccessReview': ('root', review(Z, 'SubjectAccessReviewSpec', 'SubjectAccessReviewStatus')),
    f'{Z}.SelfSubjectRulesReview': ('root', review(Z, 'SelfSubjectRulesReviewSpec', 'SubjectRulesReviewStatus')),
    f'{N}.ExtraValue': ('array', [f('items', 1, 'string', '', repeated=True)]),
    f'{N}.UserInfo': (None, [f('username', 1, 'string', 'string'), f('uid', 2, 'string', 'string'), f('groups', 3, 'string', '[]string', repeated=True), f('extra', 4, None, 'map[string]v1.ExtraValue', map_value=f'{N}.ExtraValue')]),
    f'{N}.TokenReviewSpec': (None, [f('token', 1, 'string', 'string'), f('audiences', 2, 'string', '[]string', repeated=True)]),
    f'{N}.TokenReviewStatus': (None, [f('authenticated', 1, 'bool', 'bool'), f('user', 2, f'{N}.UserInfo', 'v1.UserInfo'), f('audiences', 4, 'string', '[]string', repeated=True), f('error', 3, 'string', 'string')]),
    f'{N}.TokenReview': ('root', review(N, 'TokenReviewSpec', 'TokenReviewStatus')),
    f'{N}.BoundObjectReference': (None, [f('kind', 1, 'string', 'string'), f('apiVersion', 2, 'string', 'string'), f('name', 3, 'string', 'string'), f('uid', 4, 'string', 'types.UID')]),
    f'{N}.TokenRequestSpec': (None, [f('audiences', 1, 'string', '[]string', omitempty=False, repeated=True), f('expirationSeconds', 4, 'int64', '*int64', omitempty=False, pointer=True), f('boundObjectRef', 3, f'{N}.BoundObjectReference', '*v1.BoundObjectReference', omitempty=False, pointer=True)]),
    f'{N}.TokenRequestStatus': (None, [f('token', 1, 'string', 'string', omitempty=False), f('expirationTimestamp', 2, TIME, 'v1.Time', omitempty=False)]),
    f'{N}.TokenRequest': ('root', review(N, 'TokenRequestSpec', 'TokenRequestStatus')),
    f'{C}.ObjectReference': (None, [f('kind', 1, 'string', 'string'), f('namespace', 2, 'string', 'string'), f('name', 3, 'string', 'string'), f('uid', 4, 'string', 'types.UID'), f('apiVersion', 5, 'string', 'string'), f('resourceVersion', 6, 'string', 'string'), f('fieldPath', 7, 'string', 'string')]),
    f'{C}.ServiceAccount': ('root', [meta(), f('secrets', 2, f'{C}.ObjectReference', '[]v1.ObjectReference', repeated=True), f('imagePullSecrets', 3, f'{C}.LocalObjectReference', '[]v1.LocalObjectReference', repeated=True), f('automountServiceAccountToken', 4, 'bool', '*bool', pointer=True)]),
    f'{C}.ServiceAccountList': ('root', [f('metadata', 1, LM, 'v1.ListMeta'), f('items', 2, f'{C}.ServiceAccount', '[]v1.ServiceAccount', omitempty=False, repeated=True)]),
}

def json_type(fd, messages):
    if fd['map_value']:
        return 'object'
    if fd['repeated']:
        return 'array'
    if fd['type'] in SCALAR_JSON:
        return SCALAR_JSON[fd['type']]
    if fd['type'] == TIME:
        return 'date-time'
    return 'object'

def item_json_type(fd):
    t = fd['map_value'] or (fd['type'] if fd['repeated'] else None)
    if t is None:
        return None
    if t in SCALAR_JSON:
        return SCALAR_JSON[t]
    return 'array' if t.endswith('ExtraValue') else 'object'

schema, proto, go = {}, {}, {}
for full, (kind, fields) in MESSAGES.items():
    pkg, name = full.rsplit('.', 1)
    proto_file = pkg.replace('k8s.io.api.', 'k8s.io/api/').replace('.', '/') + '/generated.proto'
    is_array = kind == 'array'
    schema[full] = {
        'package': pkg, 'name': name, 'protoFile': proto_file, 'protobuf': True,
        'jsonRepresentation': {'jsonType': 'array', 'format': None, 'itemJsonType': 'string'} if is_array else None,
        'structType': None, 'mapType': None, 'openapiDefinition': None, 'openapiRef': None, 'requiredFrom': None if is_array else 'go-tags', 'inlineIn': None,
        'jsonOnlyFields': [{'name': n, 'jsonType': 'string', 'omitempty': True, 'required': False, 'from': f'{META}.TypeMeta'} for n in ('kind', 'apiVersion')] if kind == 'root' else [],
        'fields': [{
            'name': fd['name'], 'number': fd['number'], 'type': fd['type'], 'label': 'repeated' if fd['repeated'] or fd['map_value'] else 'optional',
            'map': {'key': 'string', 'value': fd['map_value']} if fd['map_value'] else None, 'optional': fd['omitempty'],
            'patchStrategy': 'merge' if full == f'{C}.ServiceAccount' and fd['name'] == 'secrets' else None,
            'patchMergeKey': 'name' if full == f'{C}.ServiceAccount' and fd['name'] == 'secrets' else None,
            # Kubernetes' OpenAPI generator: a field is required unless omitempty, a pointer or +optional (none here is
            # +optional without omitempty or a pointer).
            'listType': None, 'listMapKeys': None, 'mapType': None, 'required': not is_array and not fd['omitempty'] and not fd['pointer'],
            'jsonType': json_type(fd, MESSAGES), 'format': 'date-time' if fd['type'] == TIME else None, 'itemJsonType': item_json_type(fd), 'structType': None,
            'jsonName': None if is_array else fd['name'], 'jsonInline': False,
            'omitempty': None if is_array else fd['omitempty'], 'goPointer': None if is_array else fd['pointer'], 'wireType': 2 if fd['type'] not in ('bool', 'int64', 'int32') or fd['repeated'] else 0,
        } for fd in fields],
    }
    proto[full] = {'jsonType': 'array' if is_array else 'object', 'fields': [{
        'name': fd['name'], 'number': fd['number'], 'type': fd['type'], 'repeated': fd['repeated'] or bool(fd['map_value']), 'mapValue': fd['map_value'],
        'jsonType': json_type(fd, MESSAGES), 'jsonName': None if is_array else fd['name'], 'inline': False,
        'omitempty': False if is_array else fd['omitempty'], 'pointer': False if is_array else fd['pointer'],
    } for fd in fields]}
    if not is_array:
        go[full] = {fd['name']: fd['go'] for fd in fields}

roots = [k for k, (kind, _) in MESSAGES.items() if kind == 'root']
json.dump({'source': 'k8s.io/api v0.26.15 authorization/v1, authentication/v1 generated.proto and types.go (tools/auth-catalog.py)', 'roots': roots, 'messages': schema, 'goTypes': go}, open(sys.argv[1], 'w'), indent=1, sort_keys=True)
json.dump({'source': 'tools/auth-catalog.py', 'messages': proto}, open(sys.argv[2], 'w'), indent=1, sort_keys=True)
