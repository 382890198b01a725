// Pins field selector parsing, escaping, matching, requiresExactMatch and error texts to Kubernetes 1.26.
import { StatusError } from '../errors';
import { escapeFieldValue, parseFieldSelector, unescapeFieldValue } from './selector';

const UNKNOWN = (field: string): string =>
  `${field} is not a known field selector: only "metadata.name", "metadata.namespace"`;

function parseError(text: string, supported?: readonly string[]): StatusError {
  try {
    parseFieldSelector(text, supported);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseFieldSelector: canonical text', () => {
  it.each([
    ['', ''],
    [',', ''],
    ['metadata.name=x', 'metadata.name=x'],
    ['metadata.name==x', 'metadata.name=x'],
    ['metadata.name!=x', 'metadata.name!=x'],
    ['metadata.name=!x', 'metadata.name=!x'],
    ['metadata.namespace=,metadata.name=x', 'metadata.name=x,metadata.namespace='],
    ['metadata.name=x,,metadata.namespace=y', 'metadata.name=x,metadata.namespace=y'],
    ['metadata.name=a\\,b', 'metadata.name=a\\,b'],
    ['metadata.name=a\\=b', 'metadata.name=a\\=b'],
    ['metadata.name=a\\\\b', 'metadata.name=a\\\\b'],
  ])('%j → %j', (text, canonical) => {
    expect(parseFieldSelector(text).toString()).toBe(canonical);
  });

  it.each([
    ['', true],
    [',', true],
    ['metadata.name=', false],
  ])('isEmpty(%j) is %s', (text, empty) => {
    expect(parseFieldSelector(text).isEmpty()).toBe(empty);
  });
});

describe('terms with an empty field are refused (apimachinery would select everything)', () => {
  it.each(['=', '==', '!=', '=,=', ',=', '=,metadata.name=x', 'metadata.name=x,!=', '=x', '!=x', '==x'])(
    '%j is a 400',
    (text) => {
      const err = parseError(text);
      expect(err.status.code).toBe(400);
      expect(err.status.message).toBe(UNKNOWN('""'));
    },
  );

  it('a kind with its own field list says field label not supported', () => {
    expect(parseError('=', ['metadata.name', 'status.phase']).status.message).toBe('field label not supported: ');
  });
});

describe('escaping', () => {
  it.each([
    ['a,b', 'a\\,b'],
    ['a=b', 'a\\=b'],
    ['a\\b', 'a\\\\b'],
    ['plain', 'plain'],
  ])('escapes %j as %j and back', (raw, escaped) => {
    expect(escapeFieldValue(raw)).toBe(escaped);
    expect(unescapeFieldValue(escaped)).toBe(raw);
  });

  it.each([
    ['metadata.name=a\\,b', 'a,b'],
    ['metadata.name=a\\=b', 'a=b'],
    ['metadata.name=a\\\\', 'a\\'],
    ['metadata.name=a\\\\,metadata.namespace=b', 'a\\'],
  ])('%j selects metadata.name %j', (text, name) => {
    expect(parseFieldSelector(text).requiresExactMatch('metadata.name')).toBe(name);
  });
});

describe('parseFieldSelector: matching', () => {
  it.each<[string, Record<string, string>, boolean]>([
    ['', {}, true],
    ['metadata.name=x', { 'metadata.name': 'x' }, true],
    ['metadata.name=x', { 'metadata.name': 'y' }, false],
    ['metadata.name==x', { 'metadata.name': 'x' }, true],
    ['metadata.name!=x', { 'metadata.name': 'y' }, true],
    ['metadata.name!=x', { 'metadata.name': 'x' }, false],
    ['metadata.name!=x', {}, true],
    ['metadata.namespace=', { 'metadata.namespace': '' }, true],
    ['metadata.namespace=', {}, true],
    ['metadata.namespace!=', { 'metadata.namespace': '' }, false],
    ['metadata.namespace!=', { 'metadata.namespace': 'ns' }, true],
    ['metadata.name=a\\,b', { 'metadata.name': 'a,b' }, true],
    ['metadata.name=x,metadata.namespace=ns', { 'metadata.name': 'x', 'metadata.namespace': 'ns' }, true],
    ['metadata.name=x,metadata.namespace=ns', { 'metadata.name': 'x', 'metadata.namespace': 'other' }, false],
  ])('%j matches %j: %s', (text, fields, expected) => {
    expect(parseFieldSelector(text).matches(fields)).toBe(expected);
  });
});

describe('requiresExactMatch', () => {
  it.each<[string, string, string | undefined]>([
    ['metadata.name=x', 'metadata.name', 'x'],
    ['metadata.name==x', 'metadata.name', 'x'],
    ['metadata.name!=x', 'metadata.name', undefined],
    ['metadata.name=x', 'metadata.namespace', undefined],
    ['metadata.namespace=ns,metadata.name=x', 'metadata.name', 'x'],
    ['metadata.namespace=ns,metadata.name=x', 'metadata.namespace', 'ns'],
    ['metadata.name=', 'metadata.name', ''],
    ['metadata.name!=a,metadata.name=b', 'metadata.name', 'b'],
    ['metadata.name=b,metadata.name=a', 'metadata.name', 'a'],
    ['', 'metadata.name', undefined],
  ])('%j pins %s to %j', (text, field, value) => {
    expect(parseFieldSelector(text).requiresExactMatch(field)).toBe(value);
  });
});

describe('parseFieldSelector: errors (400 BadRequest, Kubernetes 1.26 texts)', () => {
  it.each<[string, string]>([
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    // terms are sorted before parsing, so the first bad term in sort order is reported
    ['z,a', "invalid selector: 'z,a'; can't understand 'a'"],
    ['b=1,a', "invalid selector: 'b=1,a'; can't understand 'a'"],
    ['metadata.name=x=y,bad', "invalid selector: 'metadata.name=x=y,bad'; can't understand 'bad'"],
    ['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['metadata.name=\u00e9\\\u00e9', 'invalid field selector: invalid escape sequence: \\\u00e9'],
    ['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['metadata.name!==x', 'invalid field selector: unescaped character in value: 61'],
    ['a\\=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['foo=bar', UNKNOWN('"foo"')],
    ['x=', UNKNOWN('"x"')],
    ['=x', UNKNOWN('""')],
    ['foo"=1', UNKNOWN('"foo\\""')],
    [' metadata.name = x', UNKNOWN('" metadata.name "')],
    ['metadata.name=a,foo=b', UNKNOWN('"foo"')],
    ['spec.x=1', UNKNOWN('"spec.x"')],
  ])('%j → %s', (text, message) => {
    const err = parseError(text);
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toBe(message);
  });

  it('reports an unknown field only after every term parsed', () => {
    expect(parseError('foo=1,zzz').message).toBe("invalid selector: 'foo=1,zzz'; can't understand 'zzz'");
  });

  it.each<[string, readonly string[], string]>([
    // kinds with their own field list (Namespace: status.phase, metadata.name) use Kubernetes' other text
    ['metadata.namespace=x', ['status.phase', 'metadata.name'], 'field label not supported: metadata.namespace'],
    ['spec.foo=x', ['status.phase', 'metadata.name'], 'field label not supported: spec.foo'],
    ['spec.foo=x', ['metadata.namespace', 'metadata.name'], UNKNOWN('"spec.foo"')],
  ])('%j with fields %j → %s', (text, supported, message) => {
    expect(parseError(text, supported).message).toBe(message);
  });

  it('accepts the fields a kind supports', () => {
    const selector = parseFieldSelector('status.phase=Active,metadata.name=ns1', ['status.phase', 'metadata.name']);
    expect(selector.matches({ 'status.phase': 'Active', 'metadata.name': 'ns1' })).toBe(true);
    expect(selector.toString()).toBe('metadata.name=ns1,status.phase=Active');
  });
});
