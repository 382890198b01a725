// Pins the FlowSchema resource and non-resource policy rule validation texts (verbs, groups, namespaces, URLs) of Kubernetes.
import { LABEL_TEXT, VERBS, NS_INTRO, Patch, build, aFlowSchema, texts, RR, NR } from './testing/validation-fixtures';
import { validateFlowSchema } from './validation';

describe('validateFlowSchema', () => {
  it.each<[string, Patch[], string[]]>([
    [
      'resource rule without verbs',
      [[`${RR}.verbs`, []]],
      [`${RR}.verbs: Required value: verbs must contain at least one value`],
    ],
    [
      'resource rule verbs * with others',
      [[`${RR}.verbs`, ['*', 'get']]],
      [`${RR}.verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`],
    ],
    ['resource rule verbs *', [[`${RR}.verbs`, ['*']]], []],
    [
      'resource rule unsupported verb',
      [[`${RR}.verbs`, ['get', 'post']]],
      [`${RR}.verbs: Unsupported value: []string{"get", "post"}: supported values: ${VERBS}`],
    ],
    [
      'resource rule without apiGroups',
      [[`${RR}.apiGroups`, undefined]],
      [`${RR}.apiGroups: Required value: resource rules must supply at least one api group`],
    ],
    [
      'resource rule apiGroups * with others',
      [[`${RR}.apiGroups`, ['*', 'apps']]],
      [`${RR}.apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`],
    ],
    [
      'resource rule without resources',
      [[`${RR}.resources`, []]],
      [`${RR}.resources: Required value: resource rules must supply at least one resource`],
    ],
    [
      'resource rule resources * with others',
      [[`${RR}.resources`, ['pods', '*']]],
      [`${RR}.resources: Invalid value: []string{"pods", "*"}: if '*' is present, must not specify other resources`],
    ],
    [
      'namespaced rule without namespaces',
      [[`${RR}.namespaces`, []]],
      [
        `${RR}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`,
      ],
    ],
    [
      'namespaced rule with null namespaces and clusterScope false',
      [
        [`${RR}.namespaces`, null],
        [`${RR}.clusterScope`, false],
      ],
      [
        `${RR}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`,
      ],
    ],
    [
      'cluster-scoped rule without namespaces',
      [
        [`${RR}.namespaces`, undefined],
        [`${RR}.clusterScope`, true],
      ],
      [],
    ],
    [
      'namespaces * with others',
      [[`${RR}.namespaces`, ['*', 'default']]],
      [
        `${RR}.namespaces: Invalid value: []string{"*", "default"}: if '*' is present, must not specify other namespaces`,
      ],
    ],
    ['namespaces *', [[`${RR}.namespaces`, ['*']]], []],
    [
      'namespace not a DNS label',
      [[`${RR}.namespaces`, ['default', 'Bad']]],
      [`${RR}.namespaces[1]: Invalid value: "Bad": ${NS_INTRO}${LABEL_TEXT}`],
    ],
    // Spec wins: "" means "any specified namespace".
    ['namespaces [""] (spec: any specified namespace)', [[`${RR}.namespaces`, ['']]], []],
    ['namespaces "" among others', [[`${RR}.namespaces`, ['', 'default']]], []],
    [
      'non-resource rule unsupported verb (HTTP method)',
      [[`${NR}.verbs`, ['post']]],
      [`${NR}.verbs: Unsupported value: []string{"post"}: supported values: ${VERBS}`],
    ],
    [
      'non-resource rule without verbs',
      [[`${NR}.verbs`, undefined]],
      [`${NR}.verbs: Required value: verbs must contain at least one value`],
    ],
    [
      'non-resource rule without URLs',
      [[`${NR}.nonResourceURLs`, []]],
      [`${NR}.nonResourceURLs: Required value: nonResourceURLs must contain at least one value`],
    ],
    [
      'URL * with others',
      [[`${NR}.nonResourceURLs`, ['*', '/healthz']]],
      [
        `${NR}.nonResourceURLs: Invalid value: []string{"*", "/healthz"}: if '*' is present, must not specify other non-resource URLs`,
      ],
    ],
    ['URL * alone', [[`${NR}.nonResourceURLs`, ['*']]], []],
    ['URL root', [[`${NR}.nonResourceURLs`, ['/']]], []],
    ['URL ending in / (matches sub-paths)', [[`${NR}.nonResourceURLs`, ['/healthz/', '/livez']]], []],
    [
      'empty URL',
      [[`${NR}.nonResourceURLs`, ['']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "": must not be empty`],
    ],
    [
      'URL without leading slash',
      [[`${NR}.nonResourceURLs`, ['healthz']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "healthz": must start with slash`],
    ],
    [
      'URL with a space',
      [[`${NR}.nonResourceURLs`, ['/a b']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/a b": must not contain white-space`],
    ],
    [
      'URL with double slash',
      [[`${NR}.nonResourceURLs`, ['/a//b']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/a//b": must not contain double slash`],
    ],
    // Spec wins: no trailing /* and no partial wildcards.
    [
      'URL ending in /*',
      [[`${NR}.nonResourceURLs`, ['/healthz', '/healthz/*']]],
      [
        `${NR}.nonResourceURLs[1]: Invalid value: "/healthz/*": must not end with "/*"; a path ending in "/" matches all its sub-paths`,
      ],
    ],
    [
      'URL /*',
      [[`${NR}.nonResourceURLs`, ['/*']]],
      [
        `${NR}.nonResourceURLs[0]: Invalid value: "/*": must not end with "/*"; a path ending in "/" matches all its sub-paths`,
      ],
    ],
    [
      'URL prefix*',
      [[`${NR}.nonResourceURLs`, ['/healthz*']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/healthz*": partial wildcards are not allowed`],
    ],
    [
      'URL with inner *',
      [[`${NR}.nonResourceURLs`, ['/api/*/x']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/api/*/x": partial wildcards are not allowed`],
    ],
    [
      'URL ending in /**',
      [[`${NR}.nonResourceURLs`, ['/a/**']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/a/**": partial wildcards are not allowed`],
    ],
  ])('%s', (_name, patches, expected) => {
    expect(texts(validateFlowSchema(build(aFlowSchema, patches)))).toEqual(expected);
  });
});
