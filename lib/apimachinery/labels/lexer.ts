// Tokenizer for label selector text, splitting exactly where k8s.io/apimachinery's labels lexer does.

/** Token kinds; operators and parentheses are named by their text. */
export type Token = 'end' | 'identifier' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';

export interface ScannedItem {
  readonly token: Token;
  /** The text that produced the token ('' at the end of input). */
  readonly literal: string;
}

/** Texts that lex to something other than an identifier. */
const LITERAL_TOKENS: ReadonlyMap<string, Token> = new Map<string, Token>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

const NUL = 0;

function isWhitespace(ch: number): boolean {
  return ch === 0x20 || ch === 0x09 || ch === 0x0d || ch === 0x0a;
}

function isSpecialSymbol(ch: number): boolean {
  // = ! ( ) , > <
  return ch === 0x3d || ch === 0x21 || ch === 0x28 || ch === 0x29 || ch === 0x2c || ch === 0x3e || ch === 0x3c;
}

class Lexer {
  private pos = 0;

  constructor(private readonly text: string) {}

  /** Next character code, or 0 past the end (a NUL in the text also reads as 0, as upstream). */
  private read(): number {
    if (this.pos < this.text.length) return this.text.charCodeAt(this.pos++);
    return NUL;
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdentifierOrKeyword(): ScannedItem {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === NUL) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += String.fromCharCode(ch);
    }
    return { token: LITERAL_TOKENS.get(buffer) ?? 'identifier', literal: buffer };
  }

  /** Longest run of operator characters that still forms a known operator. */
  private scanSpecialSymbol(): ScannedItem {
    let buffer = '';
    let last: ScannedItem | undefined;
    for (;;) {
      const ch = this.read();
      if (ch === NUL) break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += String.fromCharCode(ch);
      const token = LITERAL_TOKENS.get(buffer);
      if (token !== undefined) {
        last = { token, literal: buffer };
      } else if (last !== undefined) {
        this.unread();
        break;
      }
    }
    // Every single special symbol is itself a token, so `last` is always set here.
    return last ?? { token: 'end', literal: '' };
  }

  next(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === NUL) return { token: 'end', literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdentifierOrKeyword();
  }
}

/** All tokens of `text`, the last one always `end`. */
export function scan(text: string): ScannedItem[] {
  const lexer = new Lexer(text);
  const items: ScannedItem[] = [];
  for (;;) {
    const item = lexer.next();
    items.push(item);
    if (item.token === 'end') return items;
  }
}
