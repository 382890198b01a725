// A JSON value as YAML text byte for byte as Kubernetes writes it (sigs.k8s.io/yaml JSONToYAML → gopkg.in/yaml.v2 v2.4.0 Marshal: sorted keys, 80-column folding).
import type { ListDocument } from '../serializers/list-document';
import { goYamlSortedKeys } from './go-yaml-key-order';
import { analyzeScalar, isBreak, isPrintable, needsQuotes } from './go-yaml-scalars';

const BEST_INDENT = 2;
const BEST_WIDTH = 80;
const MAX_SIMPLE_KEY_BYTES = 128;
const ESCAPES: Record<string, string> = {
  '\0': '0',
  '\x07': 'a',
  '\b': 'b',
  '\t': 't',
  '\n': 'n',
  '\v': 'v',
  '\f': 'f',
  '\r': 'r',
  '\x1b': 'e',
  '"': '"',
  '\\': '\\',
  '\u0085': 'N',
  '\u00a0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

type Style = 'plain' | 'single' | 'double' | 'literal';

/** A mapping's keys in yaml.v2's order, without those JSON.stringify drops (undefined values). */
function mappingKeys(obj: Record<string, unknown>): string[] {
  return goYamlSortedKeys(obj).filter((key) => obj[key] !== undefined);
}

/** strconv.FormatFloat(f, 'g', -1, 64) for the non-integers yaml.v2 decodes from JSON numbers. */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  if (e >= -4 && e < 6 && Math.abs(n) < 1e21) return String(n);
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

/** The emitter state of yaml.v2 (emitterc.go) that block output of JSON values touches; flow level is 0 for every scalar. */
class Emitter {
  private readonly out: string[] = [];
  private column = 0;
  private indent = -1;
  private whitespace = true;
  private indention = true;

  text(): string {
    this.writeIndent(); // document end
    return this.take();
  }

  /** The text written since the last take. */
  take(): string {
    const text = this.out.join('');
    this.out.length = 0;
    return text;
  }

  private put(s: string): void {
    this.out.push(s);
    this.column += [...s].length;
  }

  private putBreak(): void {
    this.out.push('\n');
    this.column = 0;
  }

  /** write_break: a line break of the value itself (`\n` as the configured break, others copied), then at line start. */
  private writeBreak(c: string): void {
    if (c === '\n') this.putBreak();
    else {
      this.out.push(c);
      this.column = 0;
    }
    this.indention = true;
  }

  /** A character after the value's own line break starts at the indentation. */
  private writeText(c: string, afterBreak: boolean): void {
    if (afterBreak) this.writeIndent();
    this.put(c);
    this.indention = false;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention &&= isIndention;
  }

  /** Runs `body` with the indentation yaml_emitter_increase_indent gives, then restores it. */
  private indented(flow: boolean, indentless: boolean, body: () => void): void {
    const saved = this.increaseIndent(flow, indentless);
    body();
    this.indent = saved;
  }

  /** yaml_emitter_increase_indent; returns the indentation to restore. */
  private increaseIndent(flow: boolean, indentless: boolean): number {
    const saved = this.indent;
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
    return saved;
  }

  node(value: unknown, mapping: boolean, simpleKey: boolean): void {
    if (typeof value === 'string')
      this.scalar(value, value.includes('\n') ? 'literal' : needsQuotes(value) ? 'double' : 'plain', simpleKey);
    else if (typeof value === 'number') this.scalar(goFloat(value), 'plain', simpleKey);
    else if (typeof value === 'boolean' || value === null || value === undefined)
      this.scalar(String(value ?? null), 'plain', simpleKey);
    else if (Array.isArray(value)) this.sequence(value, mapping);
    else this.mapping(value as Record<string, unknown>);
  }

  private sequence(items: readonly unknown[], mapping: boolean): void {
    if (items.length === 0) return (this.indicator('[', true, true, false), this.indicator(']', false, false, false));
    this.indented(false, mapping && !this.indention, () => {
      for (const item of items) this.sequenceItem(item);
    });
  }

  private sequenceItem(item: unknown): void {
    this.writeIndent();
    this.indicator('-', true, false, true);
    this.node(item, false, false);
  }

  private mapping(obj: Record<string, unknown>): void {
    const keys = mappingKeys(obj);
    if (keys.length === 0) return (this.indicator('{', true, true, false), this.indicator('}', false, false, false));
    this.indented(false, false, () => {
      for (const key of keys) {
        this.mappingKey(key);
        this.node(obj[key], true, false);
      }
    });
  }

  private mappingKey(key: string): void {
    this.writeIndent();
    if (!analyzeScalar(key).multiline && Buffer.byteLength(key) <= MAX_SIMPLE_KEY_BYTES) {
      this.node(key, true, true);
      this.indicator(':', false, false, false);
    } else {
      this.indicator('?', true, false, true);
      this.node(key, true, false);
      this.writeIndent();
      this.indicator(':', true, false, true);
    }
  }

  /**
   * The top-level mapping `obj` as mapping() writes it, with `elements` as the sequence under `field` (`obj[field]`
   * when there are none), giving out the text after each element.
   */
  *documentChunks(obj: Record<string, unknown>, field: string, elements: Iterable<unknown>, count: number) {
    const outer = this.increaseIndent(false, false);
    for (const key of mappingKeys(obj)) {
      this.mappingKey(key);
      if (key !== field || count === 0) {
        this.node(obj[key], true, false);
        continue;
      }
      const inner = this.increaseIndent(false, !this.indention);
      for (const element of elements) {
        this.sequenceItem(element);
        yield this.take();
      }
      this.indent = inner;
    }
    this.indent = outer;
    yield this.text();
  }

  /** yaml_emitter_select_scalar_style, then the writer of the chosen style. */
  private scalar(value: string, requested: Style, simpleKey: boolean): void {
    const a = analyzeScalar(value);
    let style = simpleKey && a.multiline ? 'double' : requested;
    if (style === 'plain' && (!a.blockPlain || (value === '' && simpleKey))) style = 'single';
    if (style === 'single' && !a.singleQuoted) style = 'double';
    if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
    this.indented(true, false, () => {
      if (style === 'literal') this.literal(value);
      else this.flowScalar(value, style, !simpleKey);
    });
  }

  /** yaml_emitter_write_{plain,single_quoted,double_quoted}_scalar: breaks at a space once past column 80. */
  private flowScalar(value: string, style: Style, allowBreaks: boolean): void {
    const quote = style === 'single' ? "'" : style === 'double' ? '"' : '';
    if (quote) this.indicator(quote, true, false, false);
    else if (!this.whitespace) this.put(' ');
    const chars = [...value];
    let spaces = false;
    let breaks = false;
    chars.forEach((c, i) => {
      const inner = style === 'plain' || (i > 0 && i < chars.length - 1);
      if (style === 'double' && (!isPrintable(c) || isBreak(c) || c === '"' || c === '\\')) {
        const cp = c.codePointAt(0) ?? 0;
        const hex = (width: number) => cp.toString(16).toUpperCase().padStart(width, '0');
        this.put(`\\${ESCAPES[c] ?? (cp <= 0xff ? `x${hex(2)}` : cp <= 0xffff ? `u${hex(4)}` : `U${hex(8)}`)}`);
        spaces = false;
      } else if (c === ' ') {
        if (
          allowBreaks &&
          !spaces &&
          this.column > BEST_WIDTH &&
          inner &&
          (style === 'double' || chars[i + 1] !== ' ')
        ) {
          this.writeIndent();
          if (style === 'double' && chars[i + 1] === ' ') this.put('\\');
        } else this.put(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') this.putBreak();
        this.writeBreak(c);
        breaks = true;
      } else {
        this.writeText(c === "'" && style === 'single' ? "''" : c, breaks);
        spaces = false;
        breaks = false;
      }
    });
    if (quote) this.indicator(quote, false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /** yaml_emitter_write_literal_scalar with its indentation and chomping hints. */
  private literal(value: string): void {
    this.indicator('|', true, false, false);
    if (value[0] === ' ' || isBreak(value[0])) this.indicator(String(BEST_INDENT), false, false, false);
    const chars = [...value];
    const last = chars.length - 1;
    if (!isBreak(chars[last])) this.indicator('-', false, false, false);
    else if (last === 0 || isBreak(chars[last - 1])) this.indicator('+', false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of chars) {
      if (isBreak(c)) this.writeBreak(c);
      else this.writeText(c, breaks);
      breaks = isBreak(c);
    }
  }
}

/** yaml.Marshal of the value JSONToYAML decodes from JSON text (objects are block mappings with sorted keys). */
export function jsonToYaml(value: unknown): string {
  const emitter = new Emitter();
  emitter.node(value, false, false);
  return emitter.text();
}

/**
 * jsonToYaml of the list-shaped document `doc` (ListDocument: a mapping whose `field` holds the elements), as
 * pieces of text given out element by element; joined, byte for byte the whole document's jsonToYaml.
 */
export function jsonToYamlChunks(doc: ListDocument): Generator<string> {
  return new Emitter().documentChunks(doc.envelope, doc.field, doc.elements, doc.count);
}
