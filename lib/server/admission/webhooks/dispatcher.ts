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
import type { ResourceRegistry } from '../../../registry/resource-registry';
import { applyJsonPatch } from '../../../endpoints/handlers/json-patch';
import { goJsonKind } from '../../../apimachinery/json/go-json-errors';
import { goJsonSyntaxError } from '../../../apimachinery/json/json-reader';
import { callWebhook } from './client';
import { ADMISSIONREGISTRATION_GROUP } from '../../../apis/admissionregistration/register';
import { objectViewOf, SCALE_KIND } from './object-view';
import { NO_KNOWN_REVIEW_VERSION, reviewOf, reviewVersionOf, verifyResponse } from './review';
import { invocationOf, type Invocation } from './invocation';
import type { WebhookMetrics, WebhookType } from './metrics';
import type { WebhookSource } from './source';

export interface WebhookAdmissionDeps {
  source: WebhookSource;
  registry: () => ResourceRegistry;
  metrics: () => WebhookMetrics | undefined;
  serviceUrlTemplate: string;
  log: Logger;
}

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** The text kube-apiserver's panic filter answers with when Go's WriteHeader panics on a code HTTP cannot carry. */
export const PANIC_TEXT = 'This request caused apiserver to panic. Look in the logs for details.';

/**
 * webhookerrors.ToStatusErr: the webhook's Status, a Failure with the `denied the request` message and a code of at
 * least 400. Its reason and details pass through as the webhook wrote them.
 */
function deniedError(name: string, status: unknown): StatusError {
  const s = isPlainObject(status) ? status : {};
  const code = typeof s['code'] === 'number' && s['code'] >= 400 ? s['code'] : 400;
  const deniedBy = `admission webhook "${name}" denied the request`;
  const message =
    str(s['message']) !== ''
      ? `${deniedBy}: ${str(s['message'])}`
      : str(s['reason']) !== ''
        ? `${deniedBy}: ${str(s['reason'])}`
        : `${deniedBy} without explanation`;
  const reason = str(s['reason']) || undefined;
  return fromStatus(code, reason as never, message, isPlainObject(s['details']) ? (s['details'] as never) : undefined);
}

/** webhookutil.ErrCallingWebhook: the call failed; its reason, and the code of the Status it carries. */
class CallingError extends Error {
  constructor(
    reason: string,
    readonly code: number,
  ) {
    super(reason);
  }
}

/** webhookutil.ErrWebhookRejection: the webhook denied the request with this Status. */
class Rejection extends Error {
  constructor(readonly status: StatusError) {
    super(status.message);
  }
}

/** apierrors.NewBadRequest's code, which 1.26 gives a call that failed without a Status of its own. */
const CALL_FAILED_CODE = 400;
/** apierrors.NewServiceUnavailable's code, given an answer that fails VerifyAdmissionResponse. */
const INVALID_RESPONSE_CODE = 503;

/** jsonpatch.DecodePatch (evanphx/json-patch v4): the operations, or encoding/json's error text. */
function decodePatch(data: Buffer): unknown[] | string {
  const syntax = goJsonSyntaxError(data);
  if (syntax !== undefined) return syntax;
  const value: unknown = JSON.parse(data.toString('utf8'));
  if (value === null) return [];
  if (!Array.isArray(value)) return `json: cannot unmarshal ${goJsonKind(value)} into Go value of type jsonpatch.Patch`;
  const bad = value.find((op) => op !== null && !isPlainObject(op));
  if (bad !== undefined) return `json: cannot unmarshal ${goJsonKind(bad)} into Go value of type jsonpatch.Operation`;
  return value;
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

// Audit annotation keys of 1.26's dispatchers: `<prefix>round_<R>_index_<I>`, R the reinvocation round, I the webhook's
// position among the mutating webhooks, or among the validating webhooks called for the request.
const MUTATION_ANNOTATION_PREFIX = 'mutation.webhook.admission.k8s.io/';
const VALIDATING_ANNOTATION_PREFIX = 'validating.webhook.admission.k8s.io/';
const FAILED_OPEN = 'failed-open.';

interface AnnotationSlot {
  round: number;
  index: number;
}

function slotKey({ round, index }: AnnotationSlot): string {
  return `round_${round}_index_${index}`;
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
      const invocation = await invocationOf(
        this.#deps.registry(),
        webhook,
        { ...attributes, ...(object ? { object } : {}) },
        context,
      );
      if (!invocation) continue;
      const slot: AnnotationSlot = { round: 0, index: position };
      const next = await this.#admitOnce(invocation, { ...attributes, ...(object ? { object } : {}) }, context, slot);
      if (next !== undefined && object !== undefined && JSON.stringify(next) !== JSON.stringify(object)) {
        object = next;
        lastChangedBy = position;
      }
      if (webhook.spec['reinvocationPolicy'] === 'IfNeeded') invokedIfNeeded.push({ position, invocation });
    }
    // Reinvocation: IfNeeded webhooks that ran before a later webhook changed the object run once more.
    for (const { position, invocation } of invokedIfNeeded) {
      if (position >= lastChangedBy) continue;
      const slot: AnnotationSlot = { round: 1, index: position };
      const next = await this.#admitOnce(invocation, { ...attributes, ...(object ? { object } : {}) }, context, slot);
      if (next !== undefined) object = next;
    }
    return object;
  }

  async validate(attributes: AdmissionAttributes): Promise<void> {
    const context = requestContextOf(attributes);
    const hooks = this.#deps.source.validating.webhooks;
    if (hooks.length === 0 || isExempt(attributes)) return;
    const invocations = (
      await Promise.all(hooks.map((w) => invocationOf(this.#deps.registry(), w, attributes, context)))
    ).filter((i): i is Invocation => i !== undefined);
    const errors: unknown[] = [];
    await Promise.all(
      invocations.map((invocation, index) =>
        this.#dispatch(invocation, attributes, context, 'validating', { round: 0, index }).catch((err: unknown) => {
          errors.push(err);
        }),
      ),
    );
    if (errors.length > 0) throw errors[0];
  }

  /**
   * One mutating call, and its `mutation.webhook.admission.k8s.io/round_R_index_I` audit annotation (the
   * configuration, the webhook and whether it changed the object), written whatever the call's outcome, as 1.26's
   * webhookAnnotator does.
   */
  async #admitOnce(
    invocation: Invocation,
    attributes: AdmissionAttributes,
    context: RequestContext,
    slot: AnnotationSlot,
  ): Promise<ApiObject | undefined> {
    let mutated = false;
    try {
      const next = await this.#dispatch(invocation, attributes, context, 'admit', slot);
      mutated = next !== undefined && JSON.stringify(next) !== JSON.stringify(attributes.object);
      return next;
    } finally {
      const value = {
        configuration: invocation.webhook.configuration,
        webhook: str(invocation.webhook.spec['name']),
        mutated,
      };
      context.auditAnnotations[`${MUTATION_ANNOTATION_PREFIX}${slotKey(slot)}`] = JSON.stringify(value);
    }
  }

  /**
   * One call as the dispatchers run it: its metrics, and its failure policy (a failed call of an `Ignore` webhook is
   * skipped). The patched object (mutating), undefined when skipped; throws the request's error otherwise.
   */
  async #dispatch(
    invocation: Invocation,
    attributes: AdmissionAttributes,
    context: RequestContext,
    type: WebhookType,
    slot: AnnotationSlot,
  ): Promise<ApiObject | undefined> {
    const name = str(invocation.webhook.spec['name']);
    const operation = attributes.operation;
    const metrics = this.#deps.metrics();
    const started = process.hrtime.bigint();
    const seconds = (): number => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const object = await this.#call(invocation, attributes, context, type);
      metrics?.observe(name, type, operation, seconds(), false, 200);
      return object;
    } catch (err) {
      if (err instanceof CallingError) {
        const ignore = invocation.webhook.spec['failurePolicy'] === 'Ignore';
        if (!ignore) metrics?.rejection(name, type, operation, 'calling_webhook_error', err.code);
        metrics?.observe(name, type, operation, seconds(), !ignore, err.code);
        const message = `failed calling webhook "${name}": ${err.message}`;
        if (!ignore) throw internalError(new Error(message));
        metrics?.failOpen(name, type);
        const prefix = type === 'admit' ? MUTATION_ANNOTATION_PREFIX : VALIDATING_ANNOTATION_PREFIX;
        context.auditAnnotations[`${FAILED_OPEN}${prefix}${slotKey(slot)}`] = name;
        this.#deps.log.warn({ webhook: name, reason: message }, 'failed calling webhook, failing open');
        return undefined;
      }
      if (err instanceof Rejection) {
        const { code } = err.status;
        metrics?.rejection(name, type, operation, 'no_error', code);
        metrics?.observe(name, type, operation, seconds(), true, code);
        // Go's WriteHeader panics on a code of four digits or more; the panic filter answers 500 and the server
        // goes on.
        if (code > 999) {
          this.#deps.log.error({ webhook: name, code }, 'webhook denied the request with a code HTTP cannot carry');
          throw fromStatus(500, 'InternalError', PANIC_TEXT);
        }
        throw err.status;
      }
      metrics?.rejection(name, type, operation, 'apiserver_internal_error', 0);
      metrics?.observe(name, type, operation, seconds(), true, 0);
      throw err;
    }
  }

  /**
   * One call (callAttrMutatingHook, callHook): the object as patched (mutating). Throws a CallingError when the call
   * fails, a Rejection when the webhook denies, another StatusError for what fails whatever the policy.
   */
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
    const version = reviewVersionOf(hook);
    if (version === undefined) throw new CallingError(NO_KNOWN_REVIEW_VERSION, CALL_FAILED_CODE);
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
    const result = await callWebhook(hook, reviewOf(version, request), this.#deps.serviceUrlTemplate);
    if (!result.ok) throw new CallingError(`failed to call webhook: ${result.error}`, result.code ?? CALL_FAILED_CODE);
    const response = verifyResponse(version, uid, type === 'admit', result.body);
    if ('error' in response)
      throw new CallingError(`received invalid webhook response: ${response.error}`, INVALID_RESPONSE_CODE);
    for (const warning of response.warnings) if (warning.trim() !== '') context.addWarning(warning);
    for (const [key, value] of Object.entries(response.auditAnnotations))
      context.auditAnnotations[`${name}/${key}`] = value;
    if (!response.allowed) throw new Rejection(deniedError(name, response.status));
    if (!response.patch) return attributes.object;
    const ops = decodePatch(Buffer.from(response.patch.data, 'base64'));
    if (typeof ops === 'string') throw internalError(new Error(ops));
    if (ops.length === 0) return attributes.object;
    // A delete has no object to patch.
    if (attributes.object === undefined)
      throw internalError(
        new Error(
          `admission webhook "${name}" attempted to modify the object, which is not supported for this operation`,
        ),
      );
    if (response.patch.type !== 'JSONPatch')
      throw new CallingError(
        `unsupported patch type "${response.patch.type}"`,
        deniedError(name, response.status).code,
      );
    const current = view.show(attributes.object) as ApiObject;
    let patched: unknown;
    try {
      patched = applyJsonPatch(structuredClone(current) as Record<string, unknown>, ops);
    } catch (err) {
      throw internalError(err);
    }
    if (!isPlainObject(patched) || !isPlainObject(patched['metadata']))
      throw internalError(new Error(`webhook "${name}" patched the object into an invalid one`));
    return view.takeBack(patched as ApiObject, attributes.object, name);
  }
}
