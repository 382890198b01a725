// A set of field paths (structured-merge-diff fieldpath.Set): members at this level and child sets by path element.
import { comparePathElements, parsePathElement, serializePathElement, type Path, type PathElement } from './path-element';

interface Child {
  readonly pe: PathElement;
  readonly set: FieldSet;
}

export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  insert(path: Path): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (const pe of path.slice(0, -1)) node = node.descend(pe);
    const last = path[path.length - 1] as PathElement;
    node.members.set(serializePathElement(last), last);
  }

  /** The child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    const key = serializePathElement(pe);
    let child = this.children.get(key);
    if (!child) {
      child = { pe, set: new FieldSet() };
      this.children.set(key, child);
    }
    return child.set;
  }

  child(pe: PathElement): FieldSet | undefined {
    return this.children.get(serializePathElement(pe))?.set;
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(serializePathElement(pe));
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (const pe of path.slice(0, -1)) node = node?.child(pe);
    return node?.hasMember(path[path.length - 1] as PathElement) ?? false;
  }

  isEmpty(): boolean {
    if (this.members.size > 0) return false;
    for (const { set } of this.children.values()) if (!set.isEmpty()) return false;
    return true;
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) out.members.set(k, pe);
    for (const [k, pe] of other.members) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      out.children.set(k, { pe: c.pe, set: o ? c.set.union(o.set) : c.set.union(new FieldSet()) });
    }
    for (const [k, c] of other.children) if (!this.children.has(k)) out.children.set(k, { pe: c.pe, set: c.set.union(new FieldSet()) });
    return out;
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
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const o = other.children.get(k);
      out.#keep(k, c.pe, o ? c.set.difference(o.set) : c.set.union(new FieldSet()));
    }
    return out;
  }

  /** Like difference, and a member of `other` also removes everything below it here. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!other.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      if (other.members.has(k)) continue;
      const o = other.children.get(k);
      out.#keep(k, c.pe, o ? c.set.recursiveDifference(o.set) : c.set.union(new FieldSet()));
    }
    return out;
  }

  #keep(key: string, pe: PathElement, set: FieldSet): void {
    if (!set.isEmpty()) this.children.set(key, { pe, set });
  }

  /** Every member path: this level's members in order, then each child's (Set.Iterate). */
  paths(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const pe of sortedElements([...this.members.values()])) out.push([...prefix, pe]);
    for (const c of sortedChildren([...this.children.values()])) out.push(...c.set.paths([...prefix, c.pe]));
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
    const keys = new Set([...this.members.keys(), ...this.children.keys()]);
    const entries = [...keys].map((k) => ({ k, pe: (this.members.get(k) ?? this.children.get(k)?.pe) as PathElement }));
    entries.sort((a, b) => comparePathElements(a.pe, b.pe));
    for (const { k } of entries) {
      const child = this.children.get(k);
      out[k] = child ? child.set.#emit(this.members.has(k)) : {};
    }
    return out;
  }

  /** Reads a FieldsV1 tree (unknown key kinds are dropped, as structured-merge-diff does). */
  static fromFields(fields: unknown): FieldSet {
    const set = new FieldSet();
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw new Error('FieldsV1 must be a JSON object');
    for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
      if (key === '.') continue;
      const pe = parsePathElement(key);
      if (pe === undefined) continue;
      const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
      const inner = isObject ? (value as Record<string, unknown>) : {};
      const child = FieldSet.fromFields(inner);
      if ('.' in inner || child.isEmpty()) set.members.set(serializePathElement(pe), pe);
      if (!child.isEmpty()) set.children.set(serializePathElement(pe), { pe, set: child });
    }
    return set;
  }
}

const sortedElements = (pes: PathElement[]): PathElement[] => pes.sort(comparePathElements);
const sortedChildren = (cs: Child[]): Child[] => cs.sort((a, b) => comparePathElements(a.pe, b.pe));
