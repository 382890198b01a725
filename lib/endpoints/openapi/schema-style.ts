// What differs between Swagger 2.0 and OpenAPI 3.0 schemas: where definitions live, how a $ref carries siblings, non-object types.
export type Json = Record<string, unknown>;

export interface SchemaStyle {
  /** `#/definitions/` (v2) or `#/components/schemas/` (v3). */
  readonly refPrefix: string;
  /** OpenAPI 3.0 ignores keywords beside `$ref`, so kube-openapi's builder3 wraps such a ref in `allOf`. */
  readonly wrapRefs: boolean;
  /** IntOrString: a string with format `int-or-string` in v2, `oneOf` integer/string in v3. */
  readonly intOrString: Json;
  /** Quantity: a string in v2, `oneOf` string/number in v3. */
  readonly quantity: Json;
}

export const SWAGGER_V2: SchemaStyle = {
  refPrefix: '#/definitions/',
  wrapRefs: false,
  intOrString: { type: 'string', format: 'int-or-string' },
  quantity: { type: 'string' },
};

export const OPENAPI_V3: SchemaStyle = {
  refPrefix: '#/components/schemas/',
  wrapRefs: true,
  intOrString: { oneOf: [{ type: 'integer' }, { type: 'string' }], format: 'int-or-string' },
  quantity: { oneOf: [{ type: 'string' }, { type: 'number' }] },
};

/** Sets an extension under Kubernetes' name (what kubectl and client-go read) and under the orch name (the spec's). */
export function setExtension(into: Json, name: string, value: unknown): void {
  into[`x-kubernetes-${name}`] = value;
  into[`x-orch-${name}`] = value;
}
