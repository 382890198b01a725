// Webhook admission: mutating webhooks in order (JSON patches applied, IfNeeded ones reinvoked once after later
// changes), then validating webhooks in parallel; each gets an AdmissionReview (the first of its
// admissionReviewVersions this server speaks: review.ts) of the object in the version its rules matched. Denials and failures carry kube-apiserver 1.26's texts.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { badRequest, fromStatus, internalError, type StatusError } from '../../../apimachinery/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import type { Admission, AdmissionAttributes } from '../../../registry/generic/admission';
import { serverWriteContext, type RequestContext } from '../../../registry/generic/request-context';
import { ANONYMOUS, userInfoJson } from '../../../apimachinery/user';
import type { ResourceRegistry, ServedResource } from '../../../registry/resource-registry';
import { applyJsonPatch } from '../../../endpoints/handlers/json-patch';
import { callWebhook } from './client';
import { ADMISSIONREGISTRATION_GROUP } from '../../../apis/admissionregistration/register';
import { objectViewOf, SCALE_KIND } from './object-view';
import { NO_KNOWN_REVIEW_VERSION, reviewOf, reviewVersionOf, verifyResponse } from './review';
import {
  hasNamespaceSelector,
  objectSelectorMatches,
  rulesMatch,
  selectorMatches,
  type RequestTarget,
} from './matching';
import type { WebhookMetrics, WebhookType } from './metrics';
import type { Webhook, WebhookSource } from './source';

export interface WebhookAdmissionDeps {
  source: WebhookSource;
  registry: () => ResourceRegistry;
  metrics: () => WebhookMetrics | undefined;
  serviceUrlTemplate: string;
  log: Logger;
}

/** The served version a webhook is called with, and the target it matched. */
interface Invocation {
  webhook: Webhook;
  served: ServedResource;
  target: RequestTarget;
}

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** webhookerrors.ToStatusErr: the webhook's Status with the `denied the request` message, 403 unless it says ≥400. */
function deniedError(name: string, status: unknown): StatusError {
  const s = isPlainObject(status) ? status : {};
  const code = typeof s['code'] === 'number' && s['code'] >= 400 ? s['code'] : 403;
  const deniedBy = `admission webhook "${name}" denied the request`;
  const message =
    str(s['message']) !== ''
      ? `${deniedBy}: ${str(s['message'])}`
      : str(s['reason']) !== ''
        ? `${deniedBy}: ${str(s['reason'])}`
        : `${deniedBy} without explanation`;
  const reason = str(s['reason']) || undefined;
  const error = fromStatus(
    code,
    reason as never,
    message,
    isPlainObject(s['details']) ? (s['details'] as never) : undefined,
  );
  return error;
}

/** The API request a write serves, or for the server's own writes the loopback request they stand for. */
function requestContextOf(attributes: AdmissionAttributes): RequestContext {
  return attributes.context ?? serverWriteContext(attributes.definition, attributes.subresource);
}

/** Writes of webhook configurations never call webhooks (rules.IsExemptAdmissionConfigurationResource). */
function isExempt(attributes: AdmissionAttributes): boolean {
  const { group, resource } = attributes.definition;
  return (
    group === ADMISSIONREGISTRATION_GROUP &&
    (resource === 'validatingwebhookconfigurations' || resource === 'mutatingwebhookconfigurations')
  );
}

export class WebhookAdmission implements Admission {
  readonly #deps: WebhookAdmissionDeps;

  constructor(deps: WebhookAdmissionDeps) {
    this.#deps = deps;
  }

  /** The webhook plugin has no part in the create/delete checks of NamespaceLifecycle. */
  async admitCreate(): Promise<void> {}
  async admitDelete(): Promise<void> {}

  async mutate(attributes: AdmissionAttributes): Promise<ApiObject | undefined> {
    const context = requestContextOf(attributes);
    const hooks = this.#deps.source.mutating.webhooks;
    if (hooks.length === 0 || isExempt(attributes)) return attributes.object;
    let object = attributes.object;
    const invokedIfNeeded: Array<{ position: number; invocation: Invocation }> = [];
    let lastChangedBy = -1;
    for (const [position, webhook] of hooks.entries()) {
      const invocation = await this.#invocationOf(webhook, { ...attributes, ...(object ? { object } : {}) }, context);
      if (!invocation) continue;
      const next = await this.#callMutating(invocation, { ...attributes, ...(object ? { object } : {}) }, context);
      if (next !== undefined && object !== undefined && JSON.stringify(next) !== JSON.stringify(object)) {
        object = next;
        lastChangedBy = position;
      }
      if (webhook.spec['reinvocationPolicy'] === 'IfNeeded') invokedIfNeeded.push({ position, invocation });
    }
    // Reinvocation: IfNeeded webhooks that ran before a later webhook changed the object run once more.
    for (const { position, invocation } of invokedIfNeeded) {
      if (position >= lastChangedBy) continue;
      const next = await this.#callMutating(invocation, { ...attributes, ...(object ? { object } : {}) }, context);
      if (next !== undefined) object = next;
    }
    return object;
  }

  async validate(attributes: AdmissionAttributes): Promise<void> {
    const context = requestContextOf(attributes);
    const hooks = this.#deps.source.validating.webhooks;
    if (hooks.length === 0 || isExempt(attributes)) return;
    const invocations = (await Promise.all(hooks.map((w) => this.#invocationOf(w, attributes, context)))).filter(
      (i): i is Invocation => i !== undefined,
    );
    const errors: unknown[] = [];
    await Promise.all(
      invocations.map((invocation) =>
        this.#call(invocation, attributes, context, 'validating').catch((err: unknown) => {
          errors.push(err);
        }),
      ),
    );
    if (errors.length > 0) throw errors[0];
  }

  /** ShouldCallHook: selectors first, then the rules against the request's version, else an equivalent one. */
  async #invocationOf(
    webhook: Webhook,
    attributes: AdmissionAttributes,
    context: RequestContext,
  ): Promise<Invocation | undefined> {
    const hook = webhook.spec;
    const registry = this.#deps.registry();
    const isNamespace = attributes.definition.group === '' && attributes.definition.resource === 'namespaces';
    const namespace = isNamespace ? attributes.name || (attributes.object?.metadata.name ?? '') : attributes.namespace;
    // A scale write is admitted as the Scale, whose metadata has no labels.
    const scale =
      context.subresource === 'scale'
        ? registry.lookup(context.group, context.version, context.resource)?.scale
        : undefined;
    const shown = (obj: ApiObject | undefined): ApiObject | undefined => (obj && scale ? scale.toScale(obj) : obj);
    if (!objectSelectorMatches(hook, shown(attributes.object), shown(attributes.oldObject))) return undefined;
    if (hasNamespaceSelector(hook) && (namespace !== '' || isNamespace)) {
      const labels = isNamespace
        ? (attributes.object ?? attributes.oldObject)?.metadata.labels
        : await this.#namespaceLabels(registry, namespace);
      if (!selectorMatches(hook['namespaceSelector'], labels as Record<string, string> | undefined)) return undefined;
    }
    const requested = registry.lookup(context.group, context.version, context.resource);
    if (!requested) return undefined;
    const base = {
      resource: context.resource,
      subresource: context.subresource,
      operation: attributes.operation,
      namespace,
    };
    const exact: RequestTarget = { ...base, group: requested.definition.group, version: requested.definition.version };
    if (rulesMatch(hook, exact)) return { webhook, served: requested, target: exact };
    if (hook['matchPolicy'] === 'Exact') return undefined;
    for (const other of registry.allVersions()) {
      if (other === requested || other.store.keyPrefix !== requested.store.keyPrefix) continue;
      const target: RequestTarget = {
        ...base,
        group: other.definition.group,
        version: other.definition.version,
        resource: other.definition.resource,
      };
      if (rulesMatch(hook, target)) return { webhook, served: other, target };
    }
    return undefined;
  }

  async #namespaceLabels(registry: ResourceRegistry, name: string): Promise<Record<string, string> | undefined> {
    const namespaces = registry.lookup('', 'v1', 'namespaces');
    try {
      return (await namespaces?.store.getAtVersion('', name, 0))?.metadata.labels as Record<string, string> | undefined;
    } catch {
      return undefined;
    }
  }

  async #callMutating(
    invocation: Invocation,
    attributes: AdmissionAttributes,
    context: RequestContext,
  ): Promise<ApiObject | undefined> {
    return this.#call(invocation, attributes, context, 'admit');
  }

  /** One call with its failure policy: the patched object (mutating), or a throw on denial or failure (Fail). */
  async #call(
    invocation: Invocation,
    attributes: AdmissionAttributes,
    context: RequestContext,
    type: WebhookType,
  ): Promise<ApiObject | undefined> {
    const hook = invocation.webhook.spec;
    const name = str(hook['name']);
    const sideEffects = str(hook['sideEffects'], 'Unknown');
    if (attributes.dryRun && sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun')
      throw badRequest(`admission webhook "${name}" does not support dry run`);
    const metrics = this.#deps.metrics();
    const failed = (reason: string, code = 0, seconds = 0): undefined => {
      const message = `failed calling webhook "${name}": ${reason}`;
      const ignore = hook['failurePolicy'] === 'Ignore';
      metrics?.observe(name, type, attributes.operation, seconds, {
        rejected: !ignore,
        code,
        errorType: 'calling_webhook_error',
      });
      if (ignore) {
        this.#deps.log.warn({ webhook: name, reason }, 'failed calling webhook, failing open');
        return undefined;
      }
      throw internalError(new Error(message));
    };
    const version = reviewVersionOf(hook);
    if (version === undefined) return failed(NO_KNOWN_REVIEW_VERSION);
    const uid = randomUUID();
    const def = invocation.served.definition;
    const registry = this.#deps.registry();
    const hub =
      registry.lookup(attributes.definition.group, attributes.definition.version, attributes.definition.resource)
        ?.definition ?? attributes.definition;
    const view = objectViewOf(invocation.served, context.subresource, hub);
    const requested = registry.lookup(context.group, context.version, context.resource);
    const requestKind =
      view.kind === SCALE_KIND
        ? SCALE_KIND
        : {
            group: requested?.definition.group ?? context.group,
            version: context.version,
            kind: requested?.definition.kind ?? def.kind,
          };
    const request = {
      uid,
      kind: view.kind,
      resource: { group: def.group, version: def.version, resource: def.resource },
      ...(context.subresource ? { subResource: context.subresource } : {}),
      requestKind,
      requestResource: {
        group: requested?.definition.group ?? context.group,
        version: context.version,
        resource: context.resource,
      },
      ...(context.subresource ? { requestSubResource: context.subresource } : {}),
      name: attributes.name || (attributes.object?.metadata.name ?? ''),
      ...(invocation.target.namespace ? { namespace: invocation.target.namespace } : {}),
      operation: attributes.operation,
      userInfo: userInfoJson(context.user ?? ANONYMOUS),
      object: view.show(attributes.object),
      oldObject: view.show(attributes.oldObject),
      dryRun: attributes.dryRun,
      options: attributes.options ?? null,
    };
    const started = process.hrtime.bigint();
    const result = await callWebhook(hook, reviewOf(version, request), this.#deps.serviceUrlTemplate);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (!result.ok) return failed(`failed to call webhook: ${result.error}`, result.code, seconds);
    const response = verifyResponse(version, uid, type === 'admit', result.body);
    if ('error' in response)
      return failed(`received invalid webhook response: ${response.error}`, result.code, seconds);
    for (const warning of response.warnings) if (warning.trim() !== '') context.addWarning(warning);
    for (const [key, value] of Object.entries(response.auditAnnotations))
      context.auditAnnotations[`${name}/${key}`] = value;
    if (!response.allowed) {
      const denial = deniedError(name, response.status);
      metrics?.observe(name, type, attributes.operation, seconds, {
        rejected: true,
        code: result.code,
        rejectionCode: denial.code,
      });
      throw denial;
    }
    metrics?.observe(name, type, attributes.operation, seconds, { rejected: false, code: result.code });
    if (!response.patch) return attributes.object;
    let ops: unknown;
    try {
      ops = JSON.parse(Buffer.from(response.patch.data, 'base64').toString('utf8'));
    } catch (err) {
      return failed(`received undecodable patch in webhook response: ${(err as Error).message}`);
    }
    if (!Array.isArray(ops)) return failed('received undecodable patch in webhook response: not a JSON array');
    if (ops.length === 0) return attributes.object;
    // A delete has no object to patch.
    if (attributes.object === undefined)
      throw internalError(
        new Error(
          `admission webhook "${name}" attempted to modify the object, which is not supported for this operation`,
        ),
      );
    if (response.patch.type !== 'JSONPatch')
      return failed(`unsupported patch type "${response.patch.type}"`, result.code, seconds);
    const current = view.show(attributes.object) as ApiObject;
    let patched: unknown;
    try {
      patched = applyJsonPatch(structuredClone(current) as Record<string, unknown>, ops);
    } catch (err) {
      throw internalError(
        new Error(`JSON patch from webhook "${name}" could not be applied: ${(err as Error).message}`),
      );
    }
    if (!isPlainObject(patched) || !isPlainObject(patched['metadata']))
      throw internalError(new Error(`webhook "${name}" patched the object into an invalid one`));
    return view.takeBack(patched as ApiObject, attributes.object, name);
  }
}
