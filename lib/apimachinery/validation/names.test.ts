import {
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  validateDNS1123SubdomainName,
} from './names';

describe('name syntax', () => {
  it.each([['web'], ['a.b-c'], ['0abc']])('accepts the DNS subdomain %s', (name) => {
    expect(isDNS1123Subdomain(name)).toEqual([]);
  });

  it('explains a bad DNS subdomain with the Kubernetes text', () => {
    expect(isDNS1123Subdomain('Web_1')).toEqual([
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('limits DNS labels to 63 characters', () => {
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });

  it('prints the examples of a label error with two spaces before "or"', () => {
    expect(isDNS1123Label('-x')[0]).toContain("(e.g. 'my-name',  or '123-abc', regex used");
  });

  it('checks both parts of a qualified name', () => {
    expect(isQualifiedName('example.com/app')).toEqual([]);
    expect(isQualifiedName('/app')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('a/b/c')[0]).toMatch(
      /^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/,
    );
  });

  it('accepts empty label values but not bad characters', () => {
    expect(isValidLabelValue('')).toEqual([]);
    expect(isValidLabelValue('a b')).toHaveLength(1);
  });

  it('lets a generateName end in a dash', () => {
    expect(validateDNS1123SubdomainName('web-', true)).toEqual([]);
    expect(validateDNS1123SubdomainName('web-', false)).toHaveLength(1);
  });
});
