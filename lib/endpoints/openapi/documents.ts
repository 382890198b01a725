// The served OpenAPI documents of one registry, rendered once to bytes with kube-openapi's ETags (SHA-512, upper hex).
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { swaggerDocument } from './v2';
import { encodeSwaggerProtobuf } from './v2-protobuf';
import { groupVersionDocument, groupVersionKey } from './v3';

export interface RenderedDocument {
  body: Buffer;
  /** Unquoted; the `ETag` header quotes it and the v3 root's `?hash=` carries it as is. */
  etag: string;
  lastModified: Date;
}

function render(doc: unknown, lastModified: Date): RenderedDocument {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, etag: createHash('sha512').update(body).digest('hex').toUpperCase(), lastModified };
}

export class OpenApiDocuments {
  readonly #registry: ResourceRegistry;
  readonly #created = new Date(Math.floor(Date.now() / 1000) * 1000);
  #v2: RenderedDocument | undefined;
  #v2Protobuf: RenderedDocument | undefined;
  #v3: Map<string, RenderedDocument> | undefined;
  #root: RenderedDocument | undefined;

  constructor(registry: ResourceRegistry) {
    this.#registry = registry;
  }

  /** Group-version key (`apis/apps/v1`) → its v3 document. */
  #groupVersions(): Map<string, RenderedDocument> {
    if (this.#v3) return this.#v3;
    const docs = new Map<string, RenderedDocument>();
    for (const { group, versions } of this.#registry.groups()) {
      for (const version of versions)
        docs.set(
          groupVersionKey(group, version),
          render(groupVersionDocument(this.#registry, group, version), this.#created),
        );
    }
    this.#v3 = docs;
    return docs;
  }

  v3(key: string): RenderedDocument | undefined {
    return this.#groupVersions().get(key);
  }

  /** `/openapi/v3`: each group-version's server-relative URL with its current hash. */
  v3Root(): RenderedDocument {
    if (this.#root) return this.#root;
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const [key, doc] of this.#groupVersions()) paths[key] = { serverRelativeURL: v3Url(key, doc.etag) };
    this.#root = render({ paths }, this.#created);
    return this.#root;
  }

  v2(): RenderedDocument {
    this.#v2 ??= render(swaggerDocument(this.#registry), this.#created);
    return this.#v2;
  }

  /** The v2 document as gnostic protobuf, made from the JSON bytes with their ETag, as kube-openapi's handler does. */
  v2Protobuf(): RenderedDocument {
    const json = this.v2();
    this.#v2Protobuf ??= {
      ...json,
      body: encodeSwaggerProtobuf(JSON.parse(json.body.toString('utf8')) as Record<string, unknown>),
    };
    return this.#v2Protobuf;
  }
}

export function v3Url(key: string, etag: string): string {
  return `/openapi/v3/${key}?hash=${etag}`;
}

const byRegistry = new WeakMap<ResourceRegistry, OpenApiDocuments>();

/** The documents of a registry, built on first use and kept as long as the registry. */
export function openApiDocuments(registry: ResourceRegistry): OpenApiDocuments {
  let docs = byRegistry.get(registry);
  if (!docs) {
    docs = new OpenApiDocuments(registry);
    byRegistry.set(registry, docs);
  }
  return docs;
}
