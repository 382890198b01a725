// Shared by the fieldValidation integration tests: the namespace, content types and Deployment bodies as JSON or YAML text.
export const NS = 'field-validation';
export const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
export const JSON_TYPE = { 'Content-Type': 'application/json' };
export const YAML_TYPE = { 'Content-Type': 'application/yaml' };
export const CANNOT_BE_HANDLED = 'Deployment in version "v1" cannot be handled as a Deployment: ';

/** A Deployment as JSON text; `specExtra` is spliced into spec (may repeat keys), `extra` into the top level. */
export function deploymentJson(name: string, specExtra = '', extra = ''): string {
  return (
    `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}"},${extra}` +
    `"spec":{"replicas":1,${specExtra}"selector":{"matchLabels":{"app":"${name}"}},` +
    `"template":{"metadata":{"labels":{"app":"${name}"}},"spec":{"containers":[{"name":"main","image":"nginx:1.25"}]}}}}`
  );
}

/** The same Deployment as YAML; `specExtra` lines are added under spec (4-space indented). */
export function deploymentYaml(name: string, specExtra: string[] = []): string {
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  replicas: 1',
    ...specExtra.map((line) => `  ${line}`),
    '  selector:',
    '    matchLabels:',
    `      app: ${name}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${name}`,
    '    spec:',
    '      containers:',
    '      - name: main',
    '        image: nginx:1.25',
    '',
  ].join('\n');
}
