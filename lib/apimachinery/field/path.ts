// Field paths as Kubernetes prints them: `spec.rules[0].subjects[1].kind`, `metadata.labels[key]`.
// Validation builds a path for every field it visits but prints only the few that are wrong, so a path
// keeps its parent and segment and renders its text on first use.

/** How a segment is printed: `.name`, `[index]` or `[key]`. */
const enum SegmentKind {
  Name,
  Index,
  Key,
}

export class FieldPath {
  readonly #parent: FieldPath | undefined;
  // The segment lives in the path itself (one object per visited field, not two).
  readonly #kind: SegmentKind;
  readonly #value: string | number;
  #text: string | undefined;

  private constructor(parent: FieldPath | undefined, kind: SegmentKind, value: string | number) {
    this.#parent = parent;
    this.#kind = kind;
    this.#value = value;
  }

  static root(name: string, ...more: string[]): FieldPath {
    let path = new FieldPath(undefined, SegmentKind.Name, name);
    for (const m of more) path = path.child(m);
    return path;
  }

  /** `.name`, and `.next` below it when given (no rest parameter: validation calls this for every field it visits). */
  child(name: string, next?: string): FieldPath {
    const path = new FieldPath(this, SegmentKind.Name, name);
    return next === undefined ? path : new FieldPath(path, SegmentKind.Name, next);
  }

  index(i: number): FieldPath {
    return new FieldPath(this, SegmentKind.Index, i);
  }

  key(k: string): FieldPath {
    return new FieldPath(this, SegmentKind.Key, k);
  }

  toString(): string {
    if (this.#text !== undefined) return this.#text;
    const head = this.#parent?.toString() ?? '';
    switch (this.#kind) {
      case SegmentKind.Name:
        this.#text = head === '' ? String(this.#value) : `${head}.${String(this.#value)}`;
        break;
      case SegmentKind.Index:
        this.#text = `${head}[${String(this.#value)}]`;
        break;
      case SegmentKind.Key:
        this.#text = `${head}[${String(this.#value)}]`;
        break;
    }
    return this.#text;
  }
}

export const rootPath = (name: string, ...more: string[]): FieldPath => FieldPath.root(name, ...more);
