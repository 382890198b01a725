import { parseDocument } from 'yaml';
import { yamlAliasError } from './yaml-aliases';

const check = (text: string): string | undefined => yamlAliasError(parseDocument(text, { version: '1.1' }));

describe('yamlAliasError (yaml.v2 decode limits)', () => {
  it('passes documents whose aliases stay within the ratio', () => {
    expect(check('a: &x {b: 1}\nc: *x\nd: [*x, *x]\n')).toBeUndefined();
    const lines = Array.from({ length: 2_000 }, (_, i) => `k${i}: v`).join('\n');
    expect(check(`${lines}\nr: &r [1, 2]\ns: [${Array(50).fill('*r').join(', ')}]\n`)).toBeUndefined();
  });

  it('stops nested expansion with yaml.v2 text', () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    expect(check(levels.join('\n'))).toBe('yaml: document contains excessive aliasing');
  });

  it('names an anchor that contains its own alias', () => {
    expect(check('m: &m {labels: *m}\n')).toBe("yaml: anchor 'm' value contains itself");
  });
});
