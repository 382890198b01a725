// API Priority and Fairness request classification: FlowSchemas + priority levels compiled into one ordered matcher.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { RequestInfo } from '../../endpoints/request-info';
import { MANDATORY_FLOW_SCHEMA_SPECS, MANDATORY_PRIORITY_LEVEL_SPECS } from '../../apis/flowcontrol/validation';
import {
  FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE,
  QUEUING_DEFAULT_QUEUES,
} from '../../apis/flowcontrol/v1beta3/defaults';
import { compileRules, requestMatches, type PreparedRequest, type RuleMatcher } from './rule-matchers';
import { SubjectIndex } from './subject-index';
import { ANONYMOUS as ANONYMOUS_USER } from '../../apimachinery/user';

export const FLOW_SCHEMA_EXEMPT = 'exempt';
export const FLOW_SCHEMA_CATCH_ALL = 'catch-all';

export interface DigestUser {
  name: string;
  groups: readonly string[];
}

/** Who asks for what: the input of classification. */
export interface RequestDigest {
  user: DigestUser;
  info: RequestInfo;
}

/** A request without credentials (--anonymous-auth). */
export const ANONYMOUS: DigestUser = ANONYMOUS_USER;

/** The digest of a request made by `user` (anonymous by default). */
export function requestDigest(info: RequestInfo, user: DigestUser = ANONYMOUS): RequestDigest {
  return { user, info };
}

/** A matched object; `uid` is empty for the in-memory stand-ins of missing mandatory objects. */
export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

export interface Classification {
  flowSchema: ObjectRef;
  priorityLevel: ObjectRef;
  /** Flow distinguisher; empty unless the level queues (Limited, Queue, more than one queue). */
  distinguisher: string;
}

export interface Classifier {
  /** Never throws. Always answers: `catch-all` takes requests nothing else matches. */
  classify(digest: RequestDigest): Classification;
  /** Names of the schemas considered, in matching order (dangling ones excluded; stand-ins included). */
  readonly order: readonly string[];
}

type Distinguish = 'none' | 'user' | 'namespace';

interface CompiledLevel {
  ref: ObjectRef;
  /** Limited with limitResponse Queue and more than one queue: only then is a distinguisher computed. */
  queuing: boolean;
}

interface CompiledSchema {
  flowSchema: ObjectRef;
  priorityLevel: ObjectRef;
  precedence: number;
  distinguish: Distinguish;
  rules: readonly RuleMatcher[];
  /** The result for every request without a distinguisher, shared (results are read-only). */
  undistinguished: Classification;
}

/** A schema with only the rules whose subjects name one user. */
interface Candidate {
  schema: CompiledSchema;
  rules: RuleMatcher[];
}

/** What one user can match, split by request kind: usually a handful of schemas out of all of them. */
interface UserView {
  resource: readonly Candidate[];
  nonResource: readonly Candidate[];
}

/** Distinct users remembered per compiled classifier; the cache is dropped when full (users are few in practice). */
const USER_CACHE_LIMIT = 4096;

function metaString(obj: unknown, field: 'name' | 'uid'): string {
  if (!isPlainObject(obj) || !isPlainObject(obj['metadata'])) return '';
  const value = obj['metadata'][field];
  return typeof value === 'string' ? value : '';
}

function levelQueues(spec: unknown): boolean {
  if (!isPlainObject(spec) || spec['type'] !== 'Limited' || !isPlainObject(spec['limited'])) return false;
  const response = spec['limited']['limitResponse'];
  if (!isPlainObject(response) || response['type'] !== 'Queue') return false;
  const queuing = response['queuing'];
  const queues =
    isPlainObject(queuing) && typeof queuing['queues'] === 'number' && queuing['queues'] !== 0
      ? queuing['queues']
      : QUEUING_DEFAULT_QUEUES;
  return queues > 1;
}

function compileLevel(name: string, uid: string, spec: unknown): CompiledLevel {
  return { ref: Object.freeze({ name, uid }), queuing: levelQueues(spec) };
}

function distinguishOf(spec: Record<string, unknown>): Distinguish {
  const method = spec['distinguisherMethod'];
  if (!isPlainObject(method)) return 'none';
  if (method['type'] === 'ByUser') return 'user';
  if (method['type'] === 'ByNamespace') return 'namespace';
  return 'none';
}

/** undefined when the schema is unusable (no name, no spec) or dangling (its level does not exist). */
function compileSchema(
  name: string,
  uid: string,
  spec: unknown,
  levels: ReadonlyMap<string, CompiledLevel>,
): CompiledSchema | undefined {
  if (name === '' || !isPlainObject(spec)) return undefined;
  const levelName = isPlainObject(spec['priorityLevelConfiguration'])
    ? spec['priorityLevelConfiguration']['name']
    : undefined;
  const level = typeof levelName === 'string' ? levels.get(levelName) : undefined;
  if (level === undefined) return undefined;
  const p = spec['matchingPrecedence'];
  const precedence =
    typeof p === 'number' && Number.isFinite(p) && p !== 0 ? p : FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE;
  const flowSchema = Object.freeze({ name, uid });
  return {
    flowSchema,
    priorityLevel: level.ref,
    precedence,
    distinguish: level.queuing ? distinguishOf(spec) : 'none',
    rules: compileRules(spec['rules']),
    undistinguished: Object.freeze({ flowSchema, priorityLevel: level.ref, distinguisher: '' }),
  };
}

function byPrecedenceThenName(a: CompiledSchema, b: CompiledSchema): number {
  if (a.precedence !== b.precedence) return a.precedence - b.precedence;
  return a.flowSchema.name < b.flowSchema.name ? -1 : a.flowSchema.name > b.flowSchema.name ? 1 : 0;
}

function standIn(name: string, levels: ReadonlyMap<string, CompiledLevel>): CompiledSchema {
  const schema = compileSchema(name, '', MANDATORY_FLOW_SCHEMA_SPECS[name], levels);
  if (!schema) throw new Error(`mandatory FlowSchema ${name} does not compile`); // static data: cannot happen
  return schema;
}

class CompiledClassifier implements Classifier {
  /** Every rule of every schema, in matching order; a rule's index is its ordinal in the subject index. */
  readonly #rules: ReadonlyArray<{ schema: CompiledSchema; rule: RuleMatcher }>;
  #lastUser: DigestUser | undefined;
  #lastView: UserView | undefined;
  readonly #subjects: SubjectIndex;
  readonly #catchAll: CompiledSchema;
  readonly #users = new Map<string, UserView>();
  readonly order: readonly string[];

  constructor(schemas: CompiledSchema[], catchAll: CompiledSchema) {
    this.#rules = schemas.flatMap((schema) => schema.rules.map((rule) => ({ schema, rule })));
    this.#subjects = new SubjectIndex(this.#rules.map((r) => r.rule));
    this.#catchAll = catchAll;
    this.order = Object.freeze(schemas.map((s) => s.flowSchema.name));
  }

  classify(digest: RequestDigest): Classification {
    try {
      const info = digest.info;
      const view = this.#viewOf(digest.user);
      const candidates = info.isResourceRequest ? view.resource : view.nonResource;
      const req: PreparedRequest = {
        info,
        resourceKey: info.isResourceRequest
          ? info.subresource === ''
            ? info.resource
            : `${info.resource}/${info.subresource}`
          : '',
      };
      for (const candidate of candidates) {
        for (const rule of candidate.rules) if (requestMatches(rule, req)) return result(candidate.schema, digest);
      }
    } catch {
      // Only a malformed digest gets here; classification must not fail the request.
    }
    return result(this.#catchAll, digest);
  }

  /** Subject matching depends on the user alone, so it is done once per distinct user. */
  #viewOf(user: DigestUser): UserView {
    // The same user object again (anonymous is one constant): no key string to build. Token and certificate users
    // arrive as new objects per request, so only the last one is remembered (no per-request weak entries).
    if (user === this.#lastUser && this.#lastView) return this.#lastView;
    const view = this.#viewByName(user);
    this.#lastUser = user;
    this.#lastView = view;
    return view;
  }

  #viewByName(user: DigestUser): UserView {
    const key = user.groups.length === 0 ? user.name : `${user.name}\u0000${user.groups.join('\u0000')}`;
    let view = this.#users.get(key);
    if (view) return view;
    const resource: Candidate[] = [];
    const nonResource: Candidate[] = [];
    const collect = (into: Candidate[], schema: CompiledSchema, rule: RuleMatcher): void => {
      const last = into[into.length - 1];
      if (last?.schema === schema) last.rules.push(rule);
      else into.push({ schema, rules: [rule] });
    };
    for (const ordinal of this.#subjects.lookup(user.name, user.groups)) {
      const entry = this.#rules[ordinal];
      if (!entry) continue;
      if (entry.rule.resourceRules.length > 0) collect(resource, entry.schema, entry.rule);
      if (entry.rule.nonResourceRules.length > 0) collect(nonResource, entry.schema, entry.rule);
    }
    view = { resource, nonResource };
    if (this.#users.size >= USER_CACHE_LIMIT) this.#users.clear();
    this.#users.set(key, view);
    return view;
  }
}

function result(schema: CompiledSchema, digest: RequestDigest): Classification {
  let distinguisher = '';
  if (schema.distinguish === 'user') distinguisher = digest.user.name;
  else if (schema.distinguish === 'namespace' && digest.info.isResourceRequest) distinguisher = digest.info.namespace;
  if (distinguisher === '') return schema.undistinguished;
  return { flowSchema: schema.flowSchema, priorityLevel: schema.priorityLevel, distinguisher };
}

/**
 * Compiles stored FlowSchemas and PriorityLevelConfigurations. Schemas whose level does not exist (Dangling) are
 * ignored; order is matchingPrecedence, then name. Missing mandatory objects are imagined as in Kubernetes: an
 * `exempt` schema first, a `catch-all` schema last, and their levels, all with empty UIDs.
 */
export function compileClassifier(flowSchemas: readonly ApiObject[], priorityLevels: readonly ApiObject[]): Classifier {
  const levels = new Map<string, CompiledLevel>();
  for (const pl of priorityLevels) {
    const name = metaString(pl, 'name');
    if (name !== '' && !levels.has(name))
      levels.set(name, compileLevel(name, metaString(pl, 'uid'), isPlainObject(pl) ? pl['spec'] : undefined));
  }
  const schemas: CompiledSchema[] = [];
  const seen = new Set<string>();
  for (const fs of flowSchemas) {
    const name = metaString(fs, 'name');
    if (seen.has(name)) continue;
    const schema = compileSchema(name, metaString(fs, 'uid'), isPlainObject(fs) ? fs['spec'] : undefined, levels);
    if (!schema) continue;
    seen.add(name);
    schemas.push(schema);
  }
  schemas.sort(byPrecedenceThenName);
  // Levels are imagined after the schemas were resolved, so a schema naming a missing mandatory level stays dangling.
  for (const name of [FLOW_SCHEMA_EXEMPT, FLOW_SCHEMA_CATCH_ALL]) {
    if (!levels.has(name)) levels.set(name, compileLevel(name, '', MANDATORY_PRIORITY_LEVEL_SPECS[name]));
  }
  if (!seen.has(FLOW_SCHEMA_EXEMPT)) schemas.unshift(standIn(FLOW_SCHEMA_EXEMPT, levels));
  const realCatchAll = schemas.find((s) => s.flowSchema.name === FLOW_SCHEMA_CATCH_ALL);
  const catchAll = realCatchAll ?? standIn(FLOW_SCHEMA_CATCH_ALL, levels);
  if (!realCatchAll) schemas.push(catchAll);
  return new CompiledClassifier(schemas, catchAll);
}

/** The classifier before any configuration was read: only the mandatory stand-ins (as Kubernetes starts). */
export const FALLBACK_CLASSIFIER: Classifier = compileClassifier([], []);
