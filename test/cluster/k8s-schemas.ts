// JSON schemas of the kinds the Helm chart renders. Deployment and pod templates come from the project's
// Kubernetes 1.26 type catalog (the OpenAPI generator's definitions, made strict: unknown fields are errors);
// the kinds the catalog lacks get small hand-written schemas that reuse the catalog's pieces.
import Ajv, { type ValidateFunction } from 'ajv';
import { buildDefinitions } from '../../lib/endpoints/openapi/definitions';
import { OPENAPI_V3, type Json } from '../../lib/endpoints/openapi/schema-style';

const REF = '#/components/schemas/';
const API = 'io.k8s.api.';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** Rejects unknown fields everywhere, and drops the OpenAPI-only keywords ajv does not know. */
function strict(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strict);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) if (!k.startsWith('x-') && k !== 'format' && k !== 'default') out[k] = strict(v);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const ref = (name: string): Json => ({ $ref: `${REF}${name}` });
const obj = (properties: Json, required: string[] = []): Json => ({ type: 'object', properties, required, additionalProperties: false });
const str = { type: 'string' };
const int = { type: 'integer' };
const top = (apiVersion: string, kind: string, spec: Json): Json =>
  obj({ apiVersion: { const: apiVersion }, kind: { const: kind }, metadata: ref(`${META}ObjectMeta`), spec }, ['apiVersion', 'kind', 'metadata', 'spec']);
const labelSelector = ref(`${META}LabelSelector`);

const servicePort = obj({ name: str, port: int, targetPort: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'), protocol: { enum: ['TCP', 'UDP', 'SCTP'] }, nodePort: int }, ['port']);

const KINDS: Record<string, Json> = {
  'apps/v1/Deployment': ref(`${API}apps.v1.Deployment`),
  'v1/Service': top('v1', 'Service', obj({ type: { enum: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] }, clusterIP: str, publishNotReadyAddresses: { type: 'boolean' }, selector: { type: 'object', additionalProperties: str }, ports: { type: 'array', items: servicePort, minItems: 1 } })),
  'policy/v1/PodDisruptionBudget': top('policy/v1', 'PodDisruptionBudget', obj({ minAvailable: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'), maxUnavailable: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'), selector: labelSelector })),
  'apps/v1/StatefulSet': top('apps/v1', 'StatefulSet', obj({
    serviceName: str,
    replicas: int,
    podManagementPolicy: { enum: ['OrderedReady', 'Parallel'] },
    selector: labelSelector,
    template: ref(`${API}core.v1.PodTemplateSpec`),
    volumeClaimTemplates: { type: 'array', items: obj({ metadata: ref(`${META}ObjectMeta`), spec: obj({ accessModes: { type: 'array', items: { enum: ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'] } }, storageClassName: str, resources: ref(`${API}core.v1.ResourceRequirements`) }, ['accessModes', 'resources']) }) },
  }, ['selector', 'template', 'serviceName'])),
  // cert-manager.io/v1 Certificate and monitoring.coreos.com/v1 ServiceMonitor: the fields the chart uses.
  'cert-manager.io/v1/Certificate': top('cert-manager.io/v1', 'Certificate', obj({ secretName: str, issuerRef: obj({ kind: str, name: str, group: str }, ['name']), dnsNames: { type: 'array', items: str }, usages: { type: 'array', items: str } }, ['secretName', 'issuerRef'])),
  'monitoring.coreos.com/v1/ServiceMonitor': top('monitoring.coreos.com/v1', 'ServiceMonitor', obj({
    selector: labelSelector,
    endpoints: { type: 'array', items: obj({ port: str, scheme: { enum: ['http', 'https'] }, path: str, interval: { type: 'string', pattern: '^[0-9]+(ms|s|m|h)$' }, tlsConfig: obj({ serverName: str, insecureSkipVerify: { type: 'boolean' }, ca: obj({ secret: obj({ name: str, key: str }, ['name', 'key']) }) }) }) },
  }, ['selector', 'endpoints'])),
};

/** A validator per `apiVersion/kind` the chart may render. */
export function kindValidators(): Map<string, ValidateFunction> {
  const definitions = buildDefinitions([`k8s.io.api.apps.v1.Deployment`], OPENAPI_V3, new Map());
  const schemas = strict(definitions) as Json;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const out = new Map<string, ValidateFunction>();
  for (const [kind, schema] of Object.entries(KINDS)) out.set(kind, ajv.compile({ ...schema, components: { schemas } }));
  return out;
}
