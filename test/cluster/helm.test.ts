// The Helm chart rendered with the templates' own logic (helm is not installable here) and every document checked:
// YAML, known kind, Kubernetes 1.26 schema (ajv), server flags, probes and security settings; values against the schema.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { ROOT, must, parseYamlDocuments, unknownFlags } from './deploy-checks';
import { renderTemplate } from './helm-render';
import { kindValidators } from './k8s-schemas';

const CHART = join(ROOT, 'deploy', 'helm', 'orch-apiserver');
const chart = parse(readFileSync(join(CHART, 'Chart.yaml'), 'utf8')) as { name: string; version: string; appVersion: string };
const defaults = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const valuesSchema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as object;
const validators = kindValidators();

type Doc = { apiVersion: string; kind: string; metadata: { name: string }; spec: Record<string, unknown> };

function render(overrides: (v: Record<string, any>) => void = () => {}): Doc[] {
  const values = structuredClone(defaults) as Record<string, any>;
  overrides(values);
  const scope = { Values: values, Release: { Name: 'orch', Namespace: 'orch-system' }, Chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion } };
  return readdirSync(join(CHART, 'templates'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseYamlDocuments(renderTemplate(readFileSync(join(CHART, 'templates', f), 'utf8'), scope), f))
    .filter((d): d is Doc => d !== null && d !== undefined);
}

function check(docs: Doc[]): void {
  for (const doc of docs) {
    const validate = validators.get(`${doc.apiVersion}/${doc.kind}`);
    if (!validate) throw new Error(`unknown kind ${doc.apiVersion}/${doc.kind}`);
    const what = `${doc.kind} ${doc.metadata.name}`;
    if (!validate(doc)) throw new Error(`${what}: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
  }
}

const find = (docs: Doc[], kind: string, name: string): Doc => must(docs.find((d) => d.kind === kind && d.metadata.name === name), `${kind} ${name}`);
 
const container = (d: Doc): any => (d.spec as any).template.spec.containers[0];

describe('Helm chart deploy/helm/orch-apiserver', () => {
  test('values.yaml satisfies values.schema.json, and the schema rejects a bad value', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(valuesSchema);
    expect(validate(defaults)).toBe(true);
    expect(validate({ ...defaults, replicaCount: 0 })).toBe(false);
    expect(validate({ ...defaults, extraArgs: ['shutdown-delay-duration=1s'] })).toBe(false);
    expect(validate({ ...defaults, typo: 1 })).toBe(false);
  });

  test('defaults render valid Kubernetes 1.26 documents: Deployment, Service, PDB, Certificate, ServiceMonitor, etcd StatefulSet', () => {
    const docs = render();
    check(docs);
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`).sort()).toEqual(
      ['Certificate/orch-tls', 'Deployment/orch', 'PodDisruptionBudget/orch', 'PodDisruptionBudget/orch-etcd', 'Service/orch', 'Service/orch-etcd', 'ServiceMonitor/orch', 'StatefulSet/orch-etcd'].sort(),
    );
    const deploy = find(docs, 'Deployment', 'orch');
    expect(deploy.spec.replicas).toBe(3);
    const c = container(deploy);
    expect(unknownFlags(c.args)).toEqual([]);
    expect(c.args).toContain('--etcd-servers=http://orch-etcd-0.orch-etcd:2379,http://orch-etcd-1.orch-etcd:2379,http://orch-etcd-2.orch-etcd:2379');
    expect(c.readinessProbe.httpGet.path).toBe('/readyz');
    expect(c.livenessProbe.httpGet.path).toBe('/livez');
    expect(c.startupProbe.httpGet.path).toBe('/livez');
    expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    expect((deploy.spec as any).template.spec.securityContext.runAsNonRoot).toBe(true);
    expect((deploy.spec as any).template.spec.affinity.podAntiAffinity).toBeDefined();
    expect((deploy.spec as any).template.metadata.annotations['prometheus.io/scrape']).toBe('true');
    expect(c.resources.limits.memory).toBe('1Gi');
    const etcd = find(docs, 'StatefulSet', 'orch-etcd');
    expect(etcd.spec.replicas).toBe(3);
    expect((etcd.spec as any).volumeClaimTemplates[0].spec.resources.requests.storage).toBe('8Gi');
  });

  test('external etcd with TLS, an existing TLS secret, a token file and no ServiceMonitor', () => {
    const docs = render((v) => {
      v.etcd.bundled = false;
      v.etcd.externalEndpoints = ['https://etcd-a:2379', 'https://etcd-b:2379'];
      v.etcd.tlsSecret = 'etcd-client';
      v.tls.existingSecret = 'my-tls';
      v.tokenSecret = 'orch-tokens';
      v.metrics.serviceMonitor.enabled = false;
      v.metrics.podAnnotations = false;
    });
    check(docs);
    expect(docs.map((d) => d.kind).sort()).toEqual(['Deployment', 'PodDisruptionBudget', 'Service']);
    const deploy = find(docs, 'Deployment', 'orch');
    expect(container(deploy).args).toContain('--etcd-servers=https://etcd-a:2379,https://etcd-b:2379');
    const volumes = (deploy.spec as any).template.spec.volumes;
    expect(volumes).toContainEqual({ name: 'tls', secret: { secretName: 'my-tls' } });
    expect(volumes).toContainEqual({ name: 'tokens', secret: { secretName: 'orch-tokens' } });
    expect(volumes).toContainEqual({ name: 'etcd-tls', secret: { secretName: 'etcd-client' } });
    expect(container(deploy).volumeMounts).toContainEqual({ name: 'etcd-tls', mountPath: '/etc/orch/etcd-tls', readOnly: true });
    expect(container(deploy).args).toEqual(expect.arrayContaining(['--etcd-cafile=/etc/orch/etcd-tls/ca.crt', '--etcd-certfile=/etc/orch/etcd-tls/tls.crt', '--etcd-keyfile=/etc/orch/etcd-tls/tls.key']));
    expect(container(deploy).args).toEqual(expect.arrayContaining(['--token-auth-file=/etc/orch/tokens/tokens.csv', '--authorization-mode=RBAC']));
  });

  test('the checks catch a bad document and an unknown flag', () => {
    const docs = render((v) => v.extraArgs.push('--no-such-flag=1'));
    expect(unknownFlags(container(find(docs, 'Deployment', 'orch')).args)).toEqual(['--no-such-flag=1']);
    const broken = render();
    (find(broken, 'Deployment', 'orch').spec as any).template.spec.containers[0].readinessProbe.httpGett = {};
    expect(() => check(broken)).toThrow(/additional/);
    const service = find(render(), 'Service', 'orch');
    (service.spec as any).ports[0].port = 'https';
    expect(() => check([service])).toThrow(/integer/);
  });
});
