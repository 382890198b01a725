// yaml.v2's scalar types and sigs.k8s.io/yaml's map keys: what a YAML body's explicit tags, odd keys and big ints become.
import { yamlToJson } from './yaml-to-json';

const convert = (text: string): string => yamlToJson(text, { strict: false }).json;
const failure = (text: string): string => {
  try {
    return `converted: ${convert(text)}`;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('explicit core tags must fit their scalar, as yaml.v2 resolve() requires', () => {
  it.each([
    ['x: !!int foo', 'yaml: cannot decode !!str `foo` as a !!int'],
    ['x: !!int 1.5', 'yaml: cannot decode !!float `1.5` as a !!int'],
    ['x: !!bool 1', 'yaml: cannot decode !!int `1` as a !!bool'],
    ['x: !!float abc', 'yaml: cannot decode !!str `abc` as a !!float'],
    ['x: !!null a', 'yaml: cannot decode !!str `a` as a !!null'],
    ['x: !!int "foo bar"', 'yaml: cannot decode !!str `foo bar` as a !!int'],
    ['? !!int k\n: 1', 'yaml: cannot decode !!str `k` as a !!int'],
  ])('%j', (text, message) => {
    expect(failure(text)).toBe(message);
  });

  it.each([
    ['x: !!int "12"', '{"x":12}'],
    ['x: !!float 1', '{"x":1}'],
    ['x: !!str 5', '{"x":"5"}'],
    ['x: !!bool yes', '{"x":true}'],
    ['x: !!null ~', '{"x":null}'],
    ['x: !custom text', '{"x":"text"}'],
  ])('%j is accepted', (text, json) => {
    expect(convert(text)).toBe(json);
  });
});

describe('map keys as sigs.k8s.io/yaml turns them into strings', () => {
  it.each([
    ['a: 1\n~: 2', 'Unsupported map key of type: %!s(<nil>), key: <nil>, value: 2'],
    ['? a\n? ~\n: [x, 1]', 'Unsupported map key of type: %!s(<nil>), key: <nil>, value: []interface {}{"x", 1}'],
    ['18446744073709551615: v', 'Unsupported map key of type: uint64, key: 0xffffffffffffffff, value: "v"'],
    ['? [a, ~]\n: 1', 'yaml: invalid map key: []interface {}{"a", interface {}(nil)}'],
    ['? {b: 2, a: 1.5}\n: 1', 'yaml: invalid map key: map[interface {}]interface {}{"a":1.5, "b":2}'],
    ['m: &m {a: 1}\n*m : x', 'yaml: invalid map key: map[interface {}]interface {}{"a":1}'],
  ])('%j', (text, message) => {
    expect(failure(text)).toBe(message);
  });

  it('prints numbers, booleans and floats as Go does (floats at 32-bit precision)', () => {
    const text = '0x10: a\n1.5: b\n1e20: c\ny: d\n3.14159265358979: e\n1000000.0: f\n.inf: g\n-.inf: h\n0.0001: i\n';
    expect(JSON.parse(convert(text))).toEqual({
      '16': 'a',
      '1.5': 'b',
      '1e+20': 'c',
      true: 'd',
      '3.1415927': 'e',
      '1e+06': 'f',
      '.inf': 'g',
      '-.inf': 'h',
      '0.0001': 'i',
    });
  });

  it.each([
    ['a: *nowhere', "yaml: unknown anchor 'nowhere' referenced"],
    ['a:\n  <<: 5', 'yaml: map merge requires map or sequence of maps as the value'],
    ['a:\n  <<: [{x: 1}, 2]', 'yaml: map merge requires map or sequence of maps as the value'],
    ['s: &s text\na:\n  <<: *s', 'yaml: map merge requires map or sequence of maps as the value'],
  ])('%j fails as yaml.v2 fails it', (text, message) => {
    expect(failure(text)).toBe(message);
    expect(() => yamlToJson(text, { strict: true })).toThrow(message);
  });

  it('the `<<` merge key still merges', () => {
    expect(convert('b: &b {a: 1}\nm:\n  <<: *b\n  c: 2')).toBe('{"b":{"a":1},"m":{"a":1,"c":2}}');
  });
});

describe('integers keep every digit, as Go decodes them into int64 and uint64', () => {
  it.each([
    ['x: 9007199254740993', '{"x":9007199254740993}'],
    ['x: 18446744073709551615', '{"x":18446744073709551615}'],
    ['x: [-9223372036854775808, 1]', '{"x":[-9223372036854775808,1]}'],
    ['x: 0o17', '{"x":15}'],
    ['x: "\\u0000int"', '{"x":"\\u0000int"}'],
  ])('%j', (text, json) => {
    expect(convert(text)).toBe(json);
  });
});
