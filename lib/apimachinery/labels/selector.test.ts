// Pins label selector parsing, matching, canonical text and error texts to Kubernetes 1.26 (checked against its source).
import { StatusError } from '../errors';
import { parseLabelSelector } from './selector';

const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const QNAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const BINARY_OPS = 'in, notin, =, ==, !=, gt, lt';

function parseError(text: string): StatusError {
  try {
    parseLabelSelector(text);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

describe('parseLabelSelector: canonical text', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ['a', 'a'],
    ['!a', '!a'],
    ['a=b', 'a=b'],
    ['a==b', 'a==b'],
    ['a!=b', 'a!=b'],
    ['a=', 'a='],
    ['a==', 'a=='],
    ['a in (c,b)', 'a in (b,c)'],
    ['a in (b,b,a)', 'a in (a,b)'],
    ['a notin (b)', 'a notin (b)'],
    ['a in ()', 'a in ()'],
    ['a notin ()', 'a notin ()'],
    ['a in (b,)', 'a in (,b)'],
    ['a in (,b)', 'a in (,b)'],
    ['a>1', 'a>1'],
    ['a<10', 'a<10'],
    ['  a  =  b , c  !=  d ', 'a=b,c!=d'],
    ['a\tin\t(x)', 'a in (x)'],
    ['x=1,a=2,m', 'a=2,m,x=1'],
    ['b=1,a=1,b!=2', 'a=1,b=1,b!=2'],
    ['example.com/a=b', 'example.com/a=b'],
    ['in in (in),notin=notin', 'in in (in),notin=notin'],
    ['a=in', 'a=in'],
    ['x in (a),y', 'x in (a),y'],
  ])('%j → %j', (text, canonical) => {
    expect(parseLabelSelector(text).toString()).toBe(canonical);
  });

  it.each([
    ['', true],
    [' ', true],
    ['a', false],
    ['!a', false],
  ])('isEmpty(%j) is %s', (text, empty) => {
    expect(parseLabelSelector(text).isEmpty()).toBe(empty);
  });
});

describe('parseLabelSelector: matching', () => {
  const none = {};
  it.each<[string, Record<string, string> | undefined, boolean]>([
    ['', undefined, true],
    ['', { a: 'b' }, true],
    ['a', { a: '' }, true],
    ['a', none, false],
    ['a', undefined, false],
    ['!a', none, true],
    ['!a', undefined, true],
    ['!a', { a: 'x' }, false],
    ['a=b', { a: 'b' }, true],
    ['a=b', { a: 'c' }, false],
    ['a=b', none, false],
    ['a==b', { a: 'b' }, true],
    ['a==b', none, false],
    ['a=', { a: '' }, true],
    ['a=', none, false],
    ['a!=b', { a: 'c' }, true],
    ['a!=b', { a: 'b' }, false],
    ['a!=b', none, true],
    ['a in (b,c)', { a: 'c' }, true],
    ['a in (b,c)', { a: 'd' }, false],
    ['a in (b,c)', none, false],
    ['a in ()', { a: '' }, true],
    ['a in ()', { a: 'x' }, false],
    ['a notin (b,c)', { a: 'd' }, true],
    ['a notin (b,c)', { a: 'b' }, false],
    ['a notin (b,c)', none, true],
    ['a>5', { a: '6' }, true],
    ['a>5', { a: '5' }, false],
    ['a>5', { a: '-7' }, false],
    ['a>5', { a: 'x' }, false],
    ['a>5', { a: '' }, false],
    ['a>5', none, false],
    ['a>5', { a: '+6' }, true],
    ['a>5', { a: '007' }, true],
    ['a>9223372036854775806', { a: '9223372036854775807' }, true],
    ['a>5', { a: '9223372036854775808' }, false],
    ['a<5', { a: '4' }, true],
    ['a<5', { a: '-9223372036854775808' }, true],
    ['a<5', { a: '5' }, false],
    ['a<5', none, false],
    ['a=b,c', { a: 'b', c: '' }, true],
    ['a=b,c', { a: 'b' }, false],
    ['a>1,a<5', { a: '3' }, true],
    ['a>1,a<5', { a: '5' }, false],
    ['toString', none, false],
    ['!toString', none, true],
  ])('%j matches %j: %s', (text, labels, expected) => {
    expect(parseLabelSelector(text).matches(labels)).toBe(expected);
  });
});

describe('parseLabelSelector: errors (400 BadRequest, Kubernetes 1.26 texts)', () => {
  it.each([
    ['a b', `unable to parse requirement: found 'b', expected: ${BINARY_OPS}`],
    ['a!', `unable to parse requirement: found '!', expected: ${BINARY_OPS}`],
    ['a (', `unable to parse requirement: found '(', expected: ${BINARY_OPS}`],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a in (b)c', "found 'c', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['!a in (x)', "found 'in', expected: ',' or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a=b,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a=(', "unable to parse requirement: found '(', expected: identifier"],
    ['a===b', "unable to parse requirement: found '=', expected: identifier"],
    ['a<=1', "unable to parse requirement: found '=', expected: identifier"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in x', "unable to parse requirement: found 'x' expected: '('"],
    ['a notin x', "unable to parse requirement: found 'x' expected: '('"],
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a in (=', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a in (b,', "unable to parse requirement: found '', expected: ',', or identifier"],
    ['a in (,,)', "unable to parse requirement: found ')', expected: ',', or identifier"],
    [
      'a/b/c',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${QNAME_ERR} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
    [
      'a/',
      `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${QNAME_ERR}`,
    ],
    [
      'k'.repeat(64),
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    [
      'a>x',
      `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'a>',
      `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'a>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['a>-5', `unable to parse requirement: values[0][a]: Invalid value: "-5": ${LABEL_VALUE_ERR}`],
    [
      'a>x/y',
      `unable to parse requirement: [values[0]: Invalid value: "x/y": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "x/y": ${LABEL_VALUE_ERR}]`,
    ],
    ['a=b"c', `unable to parse requirement: values[0][a]: Invalid value: "b\\"c": ${LABEL_VALUE_ERR}`],
    [
      'a in (z, b/c, d/e)',
      `unable to parse requirement: [values[0][a]: Invalid value: "b/c": ${LABEL_VALUE_ERR}, values[1][a]: Invalid value: "d/e": ${LABEL_VALUE_ERR}]`,
    ],
    [
      'a=' + 'x'.repeat(64),
      `unable to parse requirement: values[0][a]: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
    ],
  ])('%j → %s', (text, message) => {
    const err = parseError(text);
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toBe(message);
  });
});
