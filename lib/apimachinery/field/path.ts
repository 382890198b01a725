// Field paths as Kubernetes prints them: `spec.rules[0].subjects[1].kind`, `metadata.labels[key]`.
// Validation builds a path for every field it visits but prints only the few that are wrong, so a path
// keeps its parent and segment and renders its text on first use.

type Segment = { kind: 'name'; name: string } | { kind: 'index'; index: number } | { kind: 'key'; key: string };

export class FieldPath {
  readonly #parent: FieldPath | undefined;
  readonly #segment: Segment;
  #text: string | undefined;

  private constructor(parent: FieldPath | undefined, segment: Segment) {
    this.#parent = parent;
    this.#segment = segment;
  }

  static root(name: string, ...more: string[]): FieldPath {
    let path = new FieldPath(undefined, { kind: 'name', name });
    for (const m of more) path = path.child(m);
    return path;
  }

  child(name: string, ...more: string[]): FieldPath {
    let path = new FieldPath(this, { kind: 'name', name });
    for (const m of more) path = path.child(m);
    return path;
  }

  index(i: number): FieldPath {
    return new FieldPath(this, { kind: 'index', index: i });
  }

  key(k: string): FieldPath {
    return new FieldPath(this, { kind: 'key', key: k });
  }

  toString(): string {
    if (this.#text !== undefined) return this.#text;
    const head = this.#parent?.toString() ?? '';
    const seg = this.#segment;
    switch (seg.kind) {
      case 'name':
        this.#text = head === '' ? seg.name : `${head}.${seg.name}`;
        break;
      case 'index':
        this.#text = `${head}[${seg.index}]`;
        break;
      case 'key':
        this.#text = `${head}[${seg.key}]`;
        break;
    }
    return this.#text;
  }
}

export const rootPath = (name: string, ...more: string[]): FieldPath => FieldPath.root(name, ...more);
