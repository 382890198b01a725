// A set of field paths (structured-merge-diff fieldpath.Set): members at this level and child sets by path element.
import { comparePathElements, parsePathElement, type Path, type PathElement } from './path-element';
import { sortStrings } from '../sort-strings';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/** What a set without members or without children reads (never written: the set makes its own map first). */
const NO_MEMBERS: ReadonlyMap<string, PathElement> = new Map();
const NO_CHILDREN: ReadonlyMap<string, Child> = new Map();

/**
 * Sets are filled while they are built (insert, descend, addMember, setChild) and never changed afterwards: the set
 * operations return `this`, `other` or children of either where nothing changes instead of copying them. A set makes
 * its maps on its first member and first child (most sets of an object's fields are leaves' parents: no children).
 */
export class FieldSet {
  #members: Map<string, PathElement> | undefined;
  #children: Map<string, Child> | undefined;

  constructor(members?: Map<string, PathElement>, children?: Map<string, Child>) {
    this.#members = members;
    this.#children = children;
  }

  get members(): ReadonlyMap<string, PathElement> {
    return this.#members ?? NO_MEMBERS;
  }

  get children(): ReadonlyMap<string, Child> {
    return this.#children ?? NO_CHILDREN;
  }

  /** `set` as the child under `pe` (an empty one is kept too, as descend keeps the sets it makes). */
  setChild(pe: PathElement, set: FieldSet): void {
    (this.#children ??= new Map()).set(pe.serialized, { pe, set });
  }

  static of(...paths: Path[]): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  insert(path: Path): void {
    const last = path.length - 1;
    if (last < 0) return;
    const parent = path.slice(0, last).reduce<FieldSet>((node, pe) => node.descend(pe), this);
    parent.addMember(path[last] as PathElement);
  }

  addMember(pe: PathElement): void {
    (this.#members ??= new Map()).set(pe.serialized, pe);
  }

  /** The child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    const children = (this.#children ??= new Map());
    let child = children.get(pe.serialized);
    if (!child) {
      child = { pe, set: new FieldSet() };
      children.set(pe.serialized, child);
    }
    return child.set;
  }

  child(pe: PathElement): FieldSet | undefined {
    return this.children.get(pe.serialized)?.set;
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(pe.serialized);
  }

  has(path: Path): boolean {
    const last = path.length - 1;
    if (last < 0) return false;
    const parent = path.slice(0, last).reduce<FieldSet | undefined>((node, pe) => node?.child(pe), this);
    return parent?.hasMember(path[last] as PathElement) ?? false;
  }

  isEmpty(): boolean {
    if (this.members.size > 0) return false;
    for (const { set } of this.children.values()) if (!set.isEmpty()) return false;
    return true;
  }

  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const members = new Map(this.members);
    for (const [k, pe] of other.members) members.set(k, pe);
    const children = new Map<string, Child>(this.children);
    for (const [k, o] of other.children) {
      const c = this.children.get(k);
      children.set(k, c ? { pe: c.pe, set: c.set.union(o.set) } : o);
    }
    return new FieldSet(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const pe of this.members.values()) if (other.members.has(pe.serialized)) out.addMember(pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (o) out.#keep(c.pe, c.set.intersection(o.set));
    }
    return out;
  }

  /** Members of `other` removed at each level; their descendants here stay (Set.Difference). */
  difference(other: FieldSet): FieldSet {
    return this.#without(other, false);
  }

  /** Like difference, and a member of `other` also removes everything below it here. */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.#without(other, true);
  }

  /** Walks only what `other` holds; `this` itself when nothing of it goes. */
  #without(other: FieldSet, recursive: boolean): FieldSet {
    const ownMembers = this.members;
    const ownChildren = this.children;
    let members: Map<string, PathElement> | undefined;
    let children: Map<string, Child> | undefined;
    for (const k of other.members.keys()) {
      if ((members ?? ownMembers).has(k)) (members ??= new Map(ownMembers)).delete(k);
      if (recursive && (children ?? ownChildren).has(k)) (children ??= new Map(ownChildren)).delete(k);
    }
    for (const [k, o] of other.children) {
      const c = (children ?? ownChildren).get(k);
      if (!c) continue;
      const rest = c.set.#without(o.set, recursive);
      if (rest === c.set) continue;
      children ??= new Map(ownChildren);
      if (rest.isEmpty()) children.delete(k);
      else children.set(k, { pe: c.pe, set: rest });
    }
    if (members === undefined && children === undefined) return this;
    return new FieldSet(members ?? this.#members, children ?? this.#children);
  }

  #keep(pe: PathElement, set: FieldSet): void {
    if (!set.isEmpty()) this.setChild(pe, set);
  }

  /** Every member path: this level's members in order, then each child's (Set.Iterate). */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const pe of [...this.members.values()].sort(comparePathElements)) out.push([...prefix, pe]);
    const children = [...this.children.values()].sort((a, b) => comparePathElements(a.pe, b.pe));
    for (const c of children) out.push(...c.set.paths([...prefix, c.pe]));
    return out;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).isEmpty() && other.difference(this).isEmpty();
  }

  /** The FieldsV1 tree: keys in path-element order, `.` first where a member also has children. */
  toFields(): Record<string, unknown> {
    return this.#emit(false);
  }

  /** Leaves and `.` entries are one shared, frozen `{}` (most of a tree's nodes; JSON writes each as `{}`). */
  #emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (this.members.size > 0 || this.children.size > 0)) out['.'] = EMPTY_FIELDS;
    const children = this.children;
    for (const key of this.#sortedKeys()) {
      const child = children.get(key);
      out[key] = child ? child.set.#emit(this.members.has(key)) : EMPTY_FIELDS;
    }
    return out;
  }

  /** Members then children that are not members, by path element; `f:` keys alone sort as plain strings. */
  #sortedKeys(): string[] {
    const members = this.members;
    // Sized once (a pushed-to [] starts with room for 17); cut to the keys written.
    const keys = new Array<string>(members.size + this.children.size);
    let n = 0;
    let fieldsOnly = true;
    for (const pe of members.values()) {
      keys[n++] = pe.serialized;
      if (pe.kind !== 'field') fieldsOnly = false;
    }
    for (const c of this.children.values()) {
      if (members.has(c.pe.serialized)) continue;
      keys[n++] = c.pe.serialized;
      if (c.pe.kind !== 'field') fieldsOnly = false;
    }
    keys.length = n;
    if (fieldsOnly) return sortStrings(keys);
    const element = (k: string): PathElement => (members.get(k) ?? this.children.get(k)?.pe) as PathElement;
    return sortStrings(keys, (a, b) => comparePathElements(element(a), element(b)));
  }

  /** Reads a FieldsV1 tree (unknown key kinds are dropped, as structured-merge-diff does). */
  static fromFields(fields: unknown): FieldSet {
    const set = new FieldSet();
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields))
      throw new Error('FieldsV1 must be a JSON object');
    for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
      if (key === '.') continue;
      const pe = parsePathElement(key);
      if (pe === undefined) continue;
      const inner =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : EMPTY_FIELDS;
      // A leaf `{}` needs no child set to learn that it is one.
      const child = hasKeys(inner) ? FieldSet.fromFields(inner) : undefined;
      const isLeaf = child === undefined || child.isEmpty();
      if ('.' in inner || isLeaf) set.addMember(pe);
      if (!isLeaf) set.setChild(pe, child);
    }
    return set;
  }
}

const EMPTY_FIELDS: Record<string, unknown> = Object.freeze({});

function hasKeys(obj: Record<string, unknown>): boolean {
  for (const _key in obj) return true;
  return false;
}
