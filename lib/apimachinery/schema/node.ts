// The structural schema of a served kind: a tree of nodes, one per JSON value position, with the list/map/patch metadata.

/**
 * The JSON shape a node accepts, following Kubernetes' JSON rules for its special types:
 * - `object`: a Go struct; known properties via `fieldAt`, anything else is an unknown field.
 * - `map`: `map[string]V`; every key allowed, each value is `values`.
 * - `array`: a list of `items`.
 * - `string`, `integer` (`format` int32/int64), `number` (double), `boolean`, `bytes` (base64 string).
 * - `int-or-string`: intstr.IntOrString, a JSON string or an int32 number.
 * - `quantity`: resource.Quantity, a string (`500m`, `1Gi`) or a JSON number; null allowed.
 * - `date-time` / `micro-time`: metav1.Time / MicroTime, an RFC 3339 string (micro: 6 fraction digits) or null.
 * - `duration`: metav1.Duration, a Go duration string (`1m30s`).
 * - `raw`: runtime.RawExtension, metav1.FieldsV1: any JSON, kept as sent, never checked inside.
 * - `any`: a Go `interface{}`: any JSON, but duplicate keys inside are still reported.
 */
export type NodeType =
  | 'object'
  | 'map'
  | 'array'
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'bytes'
  | 'int-or-string'
  | 'quantity'
  | 'date-time'
  | 'micro-time'
  | 'duration'
  | 'raw'
  | 'any';

export type ListType = 'atomic' | 'set' | 'map';
export type MapType = 'atomic' | 'granular';

/**
 * One position in a kind's JSON. Facts that belong to the field leading to a node (required, patch
 * strategy, merge key, list/map type) are on the node reached through `fieldAt`; list items and map
 * values carry only type facts. Absent facts are `undefined` (a list without `+listType` has none:
 * server-side apply decides what that means). Nodes are immutable and built lazily, once.
 */
export interface SchemaNode {
  readonly type: NodeType;
  /** `int32`, `int64`, `double`, `byte`, `date-time`, `duration`, `int-or-string`, or undefined. */
  readonly format: string | undefined;
  /** The Go type as Go's reflect prints it (`int32`, `v1.PullPolicy`, `[]v1.Container`, `v1.PodSpec`); used in decoding errors. */
  readonly goType: string;
  /** The Go struct name for `object` nodes (`PodSpec`): the context of decoding errors inside it. */
  readonly goStruct: string | undefined;
  /** The field is a Go pointer, slice or map: JSON null clears it (otherwise null leaves the value as it was). */
  readonly nullable: boolean;
  /** In the OpenAPI `required` list of the parent (metadata only: decoding never requires a field). */
  readonly required: boolean;
  /** The field's `patchStrategy` tag: `merge`, `retainKeys`, `merge,retainKeys`, `replace`. */
  readonly patchStrategy: string | undefined;
  /** The field's `patchMergeKey` tag (`name` for containers). */
  readonly patchMergeKey: string | undefined;
  /** `+listType` of an `array` field. */
  readonly listType: ListType | undefined;
  /** `+listMapKey`s of a `map`-type list, in order. */
  readonly listMapKeys: readonly string[] | undefined;
  /** `+mapType` of a `map` field, or `+structType` of an `object` (field tag, else the message's). */
  readonly mapType: MapType | undefined;
  /** Element of an `array`. */
  readonly items: SchemaNode | undefined;
  /** Value of a `map`. */
  readonly values: SchemaNode | undefined;
  /** JSON property names of an `object`, inline members flattened in, `kind`/`apiVersion` included. */
  readonly fieldNames: readonly string[];
  /** The node of an `object`'s property, undefined when the name is unknown (or this is not an object). */
  fieldAt(name: string): SchemaNode | undefined;
}
