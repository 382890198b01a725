import { negotiateResponse, bodyFormatOf } from './negotiation';

describe('negotiateResponse', () => {
  it.each([
    [undefined, { mediaType: 'application/json' }],
    ['*/*', { mediaType: 'application/json' }],
    ['application/yaml', { mediaType: 'application/yaml' }],
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', { mediaType: 'application/json', table: { group: 'meta.k8s.io', version: 'v1' } }],
    ['application/json;as=Table;g=meta.orch.io;v=v1', { mediaType: 'application/json', table: { group: 'meta.orch.io', version: 'v1' } }],
    ['application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json', { mediaType: 'application/json' }],
    ['application/yaml;q=0.5, application/json', { mediaType: 'application/json' }],
  ])('Accept %s', (accept, expected) => {
    expect(negotiateResponse(accept, true)).toEqual(expected);
  });

  it('falls back past a Table request where tables are not served', () => {
    expect(negotiateResponse('application/json;as=Table;g=meta.orch.io;v=v1, application/json', false)).toEqual({ mediaType: 'application/json' });
  });

  it('answers 406 with the served media types when nothing fits', () => {
    expect(() => negotiateResponse('text/html', true)).toThrow(
      expect.objectContaining({ status: expect.objectContaining({ code: 406, reason: 'NotAcceptable', message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.orch.protobuf' }) }),
    );
  });
});

describe('bodyFormatOf', () => {
  it('reads JSON and YAML bodies and refuses others with 415', () => {
    expect(bodyFormatOf('application/json; charset=utf-8')).toBe('json');
    expect(bodyFormatOf('application/yaml')).toBe('yaml');
    expect(() => bodyFormatOf('text/plain')).toThrow(expect.objectContaining({ status: expect.objectContaining({ code: 415 }) }));
  });
});
