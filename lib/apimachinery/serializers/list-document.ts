// A list-shaped document (a List, a Table, a PartialObjectMetadataList) whose one large array is built element by
// element while it is written: the JSON forms of it as text pieces, byte for byte what stringifying the whole
// document writes (the YAML form is jsonToYamlChunks).

export interface ListDocument {
  /** The document's fields in output order; `field` holds the value written when there are no elements ([] or null). */
  envelope: Record<string, unknown>;
  /** The field whose value is the elements (`items`, `rows`). */
  field: string;
  count: number;
  /** Each element, built when it is reached (`count` of them). */
  elements: Iterable<unknown>;
}

/** `source` with `fn` applied to each element as it is reached. */
export function* mapped<T, U>(source: Iterable<T>, fn: (element: T) => U): Generator<U> {
  for (const element of source) yield fn(element);
}

/** The whole document as one value (what the streamed forms must equal when serialized at once). */
export function wholeDocument(doc: ListDocument): Record<string, unknown> {
  return { ...doc.envelope, [doc.field]: doc.count === 0 ? doc.envelope[doc.field] : [...doc.elements] };
}

/** A string value JSON.stringify writes as it is, standing for the elements while the envelope is stringified. */
const PLACEHOLDER = '\u0000elements\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

/**
 * The document as JSON: compact with a final newline (the JSON encoder's form), or `pretty` with two-space
 * indentation and no final newline (json.MarshalIndent's), one piece per element.
 */
export function* jsonDocumentChunks(doc: ListDocument, pretty: boolean): Generator<string> {
  if (doc.count === 0) {
    const text = pretty ? JSON.stringify(doc.envelope, null, 2) : JSON.stringify(doc.envelope);
    yield pretty ? text : `${text}\n`;
    return;
  }
  const envelope = { ...doc.envelope, [doc.field]: PLACEHOLDER };
  const text = pretty ? JSON.stringify(envelope, null, 2) : JSON.stringify(envelope);
  const at = text.indexOf(PLACEHOLDER_JSON);
  // A field of the top-level object: its elements sit two levels deep in the pretty form.
  const open = pretty ? '[\n    ' : '[';
  const separator = pretty ? ',\n    ' : ',';
  yield text.slice(0, at) + open;
  let first = true;
  for (const element of doc.elements) {
    // Strings in JSON text hold no raw line breaks, so every break is the element's own indentation.
    const json = pretty ? JSON.stringify(element, null, 2).replace(/\n/g, '\n    ') : JSON.stringify(element);
    yield first ? json : separator + json;
    first = false;
  }
  const rest = text.slice(at + PLACEHOLDER_JSON.length);
  yield (pretty ? '\n  ]' : ']') + rest + (pretty ? '' : '\n');
}
