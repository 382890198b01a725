// A set of field paths (structured-merge-diff fieldpath.Set): members at this level and child sets by path element.
import { comparePathElements, parsePathElement, type Path, type PathElement } from './path-element';
import { sortStrings } from '../sort-strings';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

/**
 * Sets are filled while they are built (insert, descend, addMember) and never changed afterwards: the set
 * operations return `this`, `other` or children of either where nothing changes instead of copying them.
 */
export class FieldSet {
  constructor(
    readonly members = new Map<string, PathElement>(),
    readonly children = new Map<string, Child>(),
  ) {}

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
    this.members.set(pe.serialized, pe);
  }

  /** The child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    let child = this.children.get(pe.serialized);
    if (!child) {
      child = { pe, set: new FieldSet() };
      this.children.set(pe.serialized, child);
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
    const children = new Map(this.children);
    for (const [k, o] of other.children) {
      const c = this.children.get(k);
      children.set(k, c ? { pe: c.pe, set: c.set.union(o.set) } : o);
    }
    return new FieldSet(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      if (o) out.#keep(k, c.pe, c.set.intersection(o.set));
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
    let members = this.members;
    let children = this.children;
    for (const k of other.members.keys()) {
      if (members.has(k)) {
        if (members === this.members) members = new Map(members);
        members.delete(k);
      }
      if (recursive && children.has(k)) {
        if (children === this.children) children = new Map(children);
        children.delete(k);
      }
    }
    for (const [k, o] of other.children) {
      const c = children.get(k);
      if (!c) continue;
      const rest = c.set.#without(o.set, recursive);
      if (rest === c.set) continue;
      if (children === this.children) children = new Map(children);
      if (rest.isEmpty()) children.delete(k);
      else children.set(k, { pe: c.pe, set: rest });
    }
    return members === this.members && children === this.children ? this : new FieldSet(members, children);
  }

  #keep(key: string, pe: PathElement, set: FieldSet): void {
    if (!set.isEmpty()) this.children.set(key, { pe, set });
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

  #emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (includeSelf && (this.members.size > 0 || this.children.size > 0)) out['.'] = {};
    for (const key of this.#sortedKeys()) {
      const child = this.children.get(key);
      out[key] = child ? child.set.#emit(this.members.has(key)) : {};
    }
    return out;
  }

  /** Members then children that are not members, by path element; `f:` keys alone sort as plain strings. */
  #sortedKeys(): string[] {
    const keys = [...this.members.keys()];
    let fieldsOnly = true;
    for (const pe of this.members.values()) if (pe.kind !== 'field') fieldsOnly = false;
    for (const [k, c] of this.children) {
      if (this.members.has(k)) continue;
      keys.push(k);
      if (c.pe.kind !== 'field') fieldsOnly = false;
    }
    if (fieldsOnly) return sortStrings(keys);
    const element = (k: string): PathElement => (this.members.get(k) ?? this.children.get(k)?.pe) as PathElement;
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
      if ('.' in inner || isLeaf) set.members.set(pe.serialized, pe);
      if (!isLeaf) set.children.set(pe.serialized, { pe, set: child });
    }
    return set;
  }
}

const EMPTY_FIELDS: Record<string, unknown> = Object.freeze({});

function hasKeys(obj: Record<string, unknown>): boolean {
  for (const _key in obj) return true;
  return false;
}
