// Field paths as Kubernetes prints them: `spec.rules[0].subjects[1].kind`, `metadata.labels[key]`.

export class FieldPath {
  readonly #text: string;

  private constructor(text: string) {
    this.#text = text;
  }

  static root(name: string, ...more: string[]): FieldPath {
    return new FieldPath([name, ...more].join('.'));
  }

  child(name: string, ...more: string[]): FieldPath {
    const suffix = [name, ...more].join('.');
    return new FieldPath(this.#text === '' ? suffix : `${this.#text}.${suffix}`);
  }

  index(i: number): FieldPath {
    return new FieldPath(`${this.#text}[${i}]`);
  }

  key(k: string): FieldPath {
    return new FieldPath(`${this.#text}[${k}]`);
  }

  toString(): string {
    return this.#text;
  }
}

export const rootPath = (name: string, ...more: string[]): FieldPath => FieldPath.root(name, ...more);
