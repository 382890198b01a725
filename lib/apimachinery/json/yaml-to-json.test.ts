// YAML bodies as Kubernetes reads them: yaml.v2's scalar rules, last-wins conversion, and its strict duplicate-key errors with lines.
import { yamlToJson, YamlSyntaxError } from './yaml-to-json';

const json = (text: string): unknown => JSON.parse(yamlToJson(text, { strict: false }).json);
const duplicates = (text: string): string | undefined => yamlToJson(text, { strict: true }).duplicateKeysError;

describe('yamlToJson values', () => {
  it.each([
    ['a: yes', { a: true }],
    ['a: on', { a: true }],
    ['a: n', { a: false }],
    ['a: "yes"', { a: 'yes' }],
    ['a: 0644', { a: 420 }],
    ['a: 0x1F', { a: 31 }],
    ['a: 1_000', { a: 1000 }],
    ['a: 1.0', { a: 1 }],
    ['a: .5', { a: 0.5 }],
    ['a: ~', { a: null }],
    ['a: 2024-03-01', { a: '2024-03-01' }],
    ['a: 2024-03-01T10:00:00Z', { a: '2024-03-01T10:00:00Z' }],
    ['a: 22:22', { a: '22:22' }],
    ['1: x', { '1': 'x' }],
    ['y: x', { true: 'x' }],
  ])('%s', (text, expected) => {
    expect(json(text)).toEqual(expected);
  });

  it('keeps the last value of a repeated key', () => {
    expect(json('a: 1\nb:\n  c: 1\n  c: 2\na: 3\n')).toEqual({ a: 3, b: { c: 2 } });
  });

  it('refuses malformed YAML with the parser’s message', () => {
    expect(() => yamlToJson('a: [', { strict: false })).toThrow(YamlSyntaxError);
  });
});

describe('yamlToJson duplicate keys (strict)', () => {
  it('reports nothing without repeats, and nothing when not strict', () => {
    expect(duplicates('a: 1\nb: 2\n')).toBeUndefined();
    expect(yamlToJson('a: 1\na: 2\n', { strict: false }).duplicateKeysError).toBeUndefined();
  });

  it('names the line of the repeated key’s value, Go-quoted', () => {
    expect(duplicates('metadata:\n  name: a\n  name: "b"\n')).toBe(
      'yaml: unmarshal errors:\n  line 3: key "name" already set in map',
    );
  });

  it('reports repeats inside a value before the repeated key that holds it, as yaml.v2 decodes', () => {
    const text = [
      'spec:',
      '  replicas: 1',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '      - name: a',
      '        name: b',
      '  replicas: 2',
      '',
    ].join('\n');
    expect(duplicates(text)).toBe(
      'yaml: unmarshal errors:\n  line 8: key "name" already set in map\n  line 4: key "spec" already set in map',
    );
  });

  it('finds repeats in list items and prints non-string keys as Go does', () => {
    expect(duplicates('items:\n- a: 1\n  a: 2\n- 1: x\n  1: y\n')).toBe(
      'yaml: unmarshal errors:\n  line 3: key "a" already set in map\n  line 5: key 1 already set in map',
    );
  });

  it('does not count a merge key as a repeat', () => {
    expect(duplicates('base: &b {x: 1}\nobj:\n  <<: *b\n  <<: *b\n  z: 2\n')).toBeUndefined();
  });
});

describe('yaml.v2 values json.Marshal cannot or does write', () => {
  it.each([
    ['replicas: .inf', 'json: unsupported value: +Inf'],
    ['replicas: -.Inf', 'json: unsupported value: -Inf'],
    ['a: [1, .nan]', 'json: unsupported value: NaN'],
  ])('%j fails the conversion', (text, message) => {
    expect(() => yamlToJson(text, { strict: false })).toThrow(message);
  });

  it('decodes !!binary to the string of its bytes', () => {
    expect(yamlToJson('a: !!binary aGVsbG8=\nb: [!!binary aGk=]', { strict: false }).json).toBe(
      '{"a":"hello","b":["hi"]}',
    );
  });
});
