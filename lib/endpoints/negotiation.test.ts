import { negotiateResponse, negotiateWatch, watchContentType, bodyFormatOf } from './negotiation';

describe('negotiateResponse', () => {
  it.each([
    [undefined, { mediaType: 'application/json' }],
    ['*/*', { mediaType: 'application/json' }],
    ['application/yaml', { mediaType: 'application/yaml' }],
    [
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      { mediaType: 'application/json', table: { group: 'meta.k8s.io', version: 'v1' } },
    ],
    [
      'application/json;as=Table;g=meta.orch.io;v=v1',
      { mediaType: 'application/json', table: { group: 'meta.orch.io', version: 'v1' } },
    ],
    // PartialObjectMetadata[List] in any format (client-go's metadata client asks protobuf first)
    [
      'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json',
      { mediaType: 'application/json', partial: { group: 'meta.k8s.io', version: 'v1', list: true } },
    ],
    [
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json',
      {
        mediaType: 'application/vnd.kubernetes.protobuf',
        partial: { group: 'meta.k8s.io', version: 'v1', list: false },
      },
    ],
    [
      'application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1',
      { mediaType: 'application/yaml', partial: { group: 'meta.k8s.io', version: 'v1beta1', list: false } },
    ],
    // other conversion targets, and meta groups/versions that do not exist, fail the clause
    ['application/json;as=Deployment;g=meta.k8s.io;v=v1, application/yaml', { mediaType: 'application/yaml' }],
    [
      'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2, application/yaml',
      { mediaType: 'application/yaml' },
    ],
    ['application/yaml;q=0.5, application/json', { mediaType: 'application/json' }],
    // 1.26 orders by q but never refuses a q=0 clause (NegotiateMediaTypeOptions)
    ['*/*;q=0', { mediaType: 'application/json' }],
    ['application/yaml;q=0, application/vnd.orch.protobuf;q=0.1', { mediaType: 'application/vnd.orch.protobuf' }],
    // protobuf under the orch name and the client-go alias, answered with the name asked for
    ['application/vnd.orch.protobuf', { mediaType: 'application/vnd.orch.protobuf' }],
    ['application/vnd.kubernetes.protobuf, application/json', { mediaType: 'application/vnd.kubernetes.protobuf' }],
    [
      'application/json;q=0.9, application/vnd.kubernetes.protobuf',
      { mediaType: 'application/vnd.kubernetes.protobuf' },
    ],
    // Table is JSON or YAML only: a protobuf Table clause fails and the next one wins
    [
      'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/vnd.kubernetes.protobuf',
      { mediaType: 'application/vnd.kubernetes.protobuf' },
    ],
    [
      'application/yaml;as=Table;v=v1;g=meta.k8s.io',
      { mediaType: 'application/yaml', table: { group: 'meta.k8s.io', version: 'v1' } },
    ],
    [
      '*/*;as=Table;v=v1;g=meta.k8s.io',
      { mediaType: 'application/json', table: { group: 'meta.k8s.io', version: 'v1' } },
    ],
    // a specific type beats a wildcard of the same weight, whatever the order
    ['*/*, application/vnd.orch.protobuf', { mediaType: 'application/vnd.orch.protobuf' }],
    ['application/*, application/yaml', { mediaType: 'application/yaml' }],
    // a conversion target without as=Table, an unknown stream schema, YAML streaming, a foreign sv: clause skipped
    ['application/json;g=meta.k8s.io;v=v1, application/yaml', { mediaType: 'application/yaml' }],
    ['application/json;stream=other, application/yaml', { mediaType: 'application/yaml' }],
    ['application/yaml;stream=watch, application/json;stream=watch', { mediaType: 'application/json' }],
    ['application/json;sv=v2, application/vnd.orch.protobuf', { mediaType: 'application/vnd.orch.protobuf' }],
  ])('Accept %s', (accept, expected) => {
    expect(negotiateResponse(accept, true)).toEqual(expected);
  });

  it('falls back past a Table request where tables are not served', () => {
    expect(negotiateResponse('application/json;as=Table;g=meta.orch.io;v=v1, application/json', false)).toEqual({
      mediaType: 'application/json',
    });
  });

  it.each(['text/html', 'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io'])(
    'answers 406 with the served media types when nothing fits (%s)',
    (accept) => {
      expect(() => negotiateResponse(accept, true)).toThrow(
        expect.objectContaining({
          status: expect.objectContaining({
            code: 406,
            reason: 'NotAcceptable',
            message:
              'only the following media types are accepted: application/json, application/yaml, application/vnd.orch.protobuf',
          }),
        }),
      );
    },
  );
});

describe('negotiateWatch', () => {
  it.each([
    [undefined, 'application/json'],
    ['application/json;stream=watch', 'application/json'],
    ['application/vnd.orch.protobuf;stream=watch', 'application/vnd.orch.protobuf;stream=watch'],
    ['application/vnd.kubernetes.protobuf, application/json', 'application/vnd.kubernetes.protobuf;stream=watch'],
  ])('Accept %s streams as %s', (accept, contentType) => {
    expect(watchContentType(negotiateWatch(accept, true))).toBe(contentType);
  });

  it('keeps a Table watch in JSON', () => {
    expect(
      negotiateWatch(
        'application/vnd.orch.protobuf;as=Table;g=meta.orch.io;v=v1, application/json;as=Table;g=meta.orch.io;v=v1',
        true,
      ),
    ).toEqual({ mediaType: 'application/json', table: { group: 'meta.orch.io', version: 'v1' } });
  });

  it('refuses YAML, even ahead of JSON, with the stream types (406)', () => {
    expect(() => negotiateWatch('application/yaml, application/json', true)).toThrow(
      expect.objectContaining({
        status: expect.objectContaining({
          code: 406,
          message:
            'only the following media types are accepted: application/json;stream=watch, application/vnd.orch.protobuf;stream=watch',
        }),
      }),
    );
  });
});

describe('bodyFormatOf', () => {
  it('reads JSON, YAML and protobuf bodies and refuses others with 415', () => {
    expect(bodyFormatOf('application/json; charset=utf-8')).toBe('json');
    expect(bodyFormatOf('application/yaml')).toBe('yaml');
    expect(bodyFormatOf('application/vnd.orch.protobuf')).toBe('protobuf');
    expect(bodyFormatOf('application/vnd.kubernetes.protobuf')).toBe('protobuf');
    expect(() => bodyFormatOf('text/plain')).toThrow(
      expect.objectContaining({ status: expect.objectContaining({ code: 415 }) }),
    );
  });

  it.each([
    ['application/json; foo'],
    ['application/json; charset=utf-8; CHARSET=utf-8'],
    ['application/json; charset='],
    ['application/json extra'],
    ['application/'],
    ['application/json; charset="utf-8'],
  ])('refuses %j as Go mime.ParseMediaType does (415)', (type) => {
    expect(() => bodyFormatOf(type)).toThrow(
      expect.objectContaining({ status: expect.objectContaining({ code: 415 }) }),
    );
  });

  it.each([['application/json;'], ['application/json ; charset="utf-8" ;'], ['APPLICATION/JSON']])(
    'accepts %j',
    (type) => {
      expect(bodyFormatOf(type)).toBe('json');
    },
  );
});
