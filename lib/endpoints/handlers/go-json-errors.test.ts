// Go encoding/json's syntax error texts for invalid request bodies.
import { goJsonSyntaxError, goMarshal } from './go-json-errors';

describe('goJsonSyntaxError', () => {
  it.each([
    ['', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['tru', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['{1:2}', "invalid character '1' looking for beginning of object key string"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['trx', "invalid character 'x' in literal true (expecting 'u')"],
    ['nul', 'unexpected end of JSON input'],
    ['fals3', "invalid character '3' in literal false (expecting 'e')"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['"\\q"', "invalid character 'q' in string escape code"],
    ['"\\u12x4"', "invalid character 'x' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['\t{"a":\u0001}', "invalid character '\\x01' looking for beginning of value"],
    ['{"a":1}}', "invalid character '}' after top-level value"],
  ])('%j → %s', (text, expected) => {
    expect(goJsonSyntaxError(Buffer.from(text))).toBe(expected);
  });

  it('accepts valid JSON', () => {
    expect(goJsonSyntaxError(Buffer.from(' {"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n"]} '))).toBeUndefined();
  });

  it('names a stray non-ASCII byte by its Latin-1 rune', () => {
    expect(goJsonSyntaxError(Buffer.from('é'))).toBe("invalid character 'Ã' looking for beginning of value");
  });
});

describe('goMarshal', () => {
  it('sorts keys and escapes HTML characters as json.Marshal does', () => {
    expect(goMarshal([{ b: 1, a: '<&>' }])).toBe('[{"a":"\\u003c\\u0026\\u003e","b":1}]');
  });
});
