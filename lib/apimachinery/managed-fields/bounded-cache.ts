// A memo for values derived from strings that repeat on every write (field names, FieldsV1 keys, manager identifiers).

/** Bounded by starting over when full, so odd or hostile strings cannot grow it; values must be immutable. */
export class BoundedCache<V> {
  readonly #entries = new Map<string, V>();

  constructor(readonly limit: number) {}

  /** The value made for `key`, made by `make` (and kept) the first time; what `make` throws is not kept. */
  get(key: string, make: (key: string) => V): V {
    let value = this.#entries.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.#entries.size >= this.limit) this.#entries.clear();
      this.#entries.set(key, value);
    }
    return value;
  }
}
