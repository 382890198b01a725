// json.Marshal's text as Go writes it: key order, escapes, Unicode.
import { goEscapeJson, goJsonOrdered, goMarshal } from './go-marshal';

describe('goMarshal', () => {
  it('sorts keys and escapes HTML characters as json.Marshal does', () => {
    expect(goMarshal([{ b: 1, a: '<&>' }])).toBe('[{"a":"\\u003c\\u0026\\u003e","b":1}]');
  });

  it('sorts map keys by their UTF-8 bytes: a non-BMP key after a U+FFxx key (UTF-16 order would put it first)', () => {
    // U+1F600 is F0 9F 98 80 in UTF-8, U+FF21 is EF BC A1: Go (sort.Strings) writes U+FF21 first; JS sort() the other way.
    const value = { '\u{1F600}': 1, '\uFF21': 2, z: 3 };
    expect(Object.keys(value).sort()).toEqual(['z', '\u{1F600}', '\uFF21']);
    expect(goMarshal(value)).toBe('{"z":3,"\uFF21":2,"\u{1F600}":1}');
    expect(goMarshal({ a: [{ '\u{10000}': true, '\uE000': false }] })).toBe(
      '{"a":[{"\uE000":false,"\u{10000}":true}]}',
    );
  });

  it('sorts integer-like keys as strings ("10" before "9"), as Go does', () => {
    expect(goMarshal({ 9: 'a', 10: 'b', x: null, '': 0 })).toBe('{"":0,"10":"b","9":"a","x":null}');
  });

  it('escapes U+2028 and U+2029 and writes an unpaired surrogate as U+FFFD', () => {
    expect(goMarshal({ s: 'a\u2028b\u2029c' })).toBe('{"s":"a\\u2028b\\u2029c"}');
    expect(goMarshal({ ['k\ud800']: 'v\udc00x', pair: '\u{1F600}' })).toBe('{"k\uFFFD":"v\uFFFDx","pair":"\u{1F600}"}');
  });

  it('keeps a __proto__ key as data', () => {
    expect(goMarshal(JSON.parse('{"__proto__":{"b":1},"a":2}'))).toBe('{"__proto__":{"b":1},"a":2}');
  });

  it('writes scalars and null as JSON does', () => {
    expect(goMarshal(null)).toBe('null');
    expect(goMarshal(['x', 1.5, -2, true])).toBe('["x",1.5,-2,true]');
  });
});

describe('goJsonOrdered', () => {
  it('keeps the given key order and escapes as Go', () => {
    expect(goJsonOrdered({ name: 'a>b', containerPort: 80 })).toBe('{"name":"a\\u003eb","containerPort":80}');
    expect(goEscapeJson('"<&>"')).toBe('"\\u003c\\u0026\\u003e"');
  });
});
