// Shuffle sharding (KEP-1040): a flow's hash deals it a hand of `handSize` distinct queues out of `deckSize`.
import { createHash } from 'node:crypto';

/** The largest hand Kubernetes allows. */
export const MAX_HAND_SIZE = 15;

/** A flow's 64-bit hash as Kubernetes computes it: the first 8 bytes (little endian) of sha256(schema, 0, distinguisher). */
export function hashFlow(flowSchema: string, distinguisher: string): bigint {
  const digest = createHash('sha256').update(flowSchema).update(Buffer.of(0)).update(distinguisher).digest();
  return digest.readBigUInt64LE(0);
}

/**
 * Deals `handSize` distinct cards from a deck of `deckSize` with the mixed-radix digits of `hash`: digit i is taken
 * modulo (deckSize - i), then mapped past the cards already dealt, so each hash gives one ordered hand.
 */
export function dealHand(hash: bigint, deckSize: number, handSize: number): number[] {
  const size = Math.min(handSize, deckSize, MAX_HAND_SIZE);
  const remainders: number[] = [];
  let rest = hash;
  for (let i = 0; i < size; i++) {
    const radix = BigInt(deckSize - i);
    remainders.push(Number(rest % radix));
    rest /= radix;
  }
  const hand: number[] = [];
  for (let i = 0; i < size; i++) {
    let card = remainders[i] ?? 0;
    for (let j = i; j > 0; j--) if (card >= (remainders[j - 1] ?? 0)) card++;
    hand.push(card);
  }
  return hand;
}

/** Hands by flow key, computed once per flow (hashing is the costly part); dropped when full or reconfigured. */
export class HandCache {
  /** By FlowSchema, then distinguisher: no key string is built per request. */
  readonly #hands = new Map<string, Map<string, readonly number[]>>();
  readonly #limit: number;
  #size = 0;

  constructor(limit = 4096) {
    this.#limit = limit;
  }

  hand(flowSchema: string, distinguisher: string, deckSize: number, handSize: number): readonly number[] {
    let bySchema = this.#hands.get(flowSchema);
    let hand = bySchema?.get(distinguisher);
    if (hand === undefined) {
      hand = dealHand(hashFlow(flowSchema, distinguisher), deckSize, handSize);
      if (this.#size >= this.#limit) this.clear();
      bySchema = this.#hands.get(flowSchema);
      if (!bySchema) {
        bySchema = new Map();
        this.#hands.set(flowSchema, bySchema);
      }
      bySchema.set(distinguisher, hand);
      this.#size++;
    }
    return hand;
  }

  clear(): void {
    this.#hands.clear();
    this.#size = 0;
  }
}
