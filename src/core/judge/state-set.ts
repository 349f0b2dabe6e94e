/**
 * A set of state hashes (16 hex digits, as stateHash gives) held as 64-bit integers in typed
 * arrays: 8 bytes a hash at most half full, where a Set of strings takes over 100 bytes a hash.
 * The planner counts the distinct states of a data file of any size with it.
 */
export interface StateSet {
  /** Adds a hash; true when it was not in the set before. */
  add(hash: string): boolean
  has(hash: string): boolean
  readonly size: number
}

/** A StateSet that also counts how many times each hash was added: the rows of a run per state. */
export interface StateTally extends StateSet {
  /** How many times `hash` was added (0 when never). */
  rowsOf(hash: string): number
  /** Every hash with its count, in hash order (as the store's run-state table is keyed). */
  entries(): Iterable<{ readonly stateHash: string; readonly rows: number }>
}

const HASH = /^[0-9a-f]{16}$/

/** An empty StateSet with room for `capacity` hashes before it first grows. */
export function createStateSet(capacity = 1024): StateSet {
  return createTable(capacity, false)
}

/** An empty StateTally: 12 bytes a hash at most half full. */
export function createStateTally(capacity = 1024): StateTally {
  return createTable(capacity, true)
}

function createTable(capacity: number, counting: boolean): StateTally {
  let slots = 2 ** Math.max(4, Math.ceil(Math.log2(capacity * 2)))
  // A slot is empty when both halves are 0; the hash 0000000000000000 is kept aside.
  let hi = new Uint32Array(slots)
  let lo = new Uint32Array(slots)
  let counts = new Uint32Array(counting ? slots : 0)
  let size = 0
  let zero = 0

  /** The slot holding the hash, or the empty slot where it would go. */
  const find = (h: number, l: number): number => {
    const mask = slots - 1
    let i = (l ^ Math.imul(h, 0x9e3779b1)) & mask
    while ((hi[i] !== 0 || lo[i] !== 0) && (hi[i] !== h || lo[i] !== l)) i = (i + 1) & mask
    return i
  }
  const grow = (): void => {
    const [oldHi, oldLo, oldCounts] = [hi, lo, counts]
    slots *= 2
    hi = new Uint32Array(slots)
    lo = new Uint32Array(slots)
    counts = new Uint32Array(counting ? slots : 0)
    for (let i = 0; i < oldHi.length; i++) {
      if (oldHi[i] === 0 && oldLo[i] === 0) continue
      const j = find(oldHi[i], oldLo[i])
      hi[j] = oldHi[i]
      lo[j] = oldLo[i]
      if (counting) counts[j] = oldCounts[i]
    }
  }
  const halves = (hash: string): [number, number] => {
    if (!HASH.test(hash)) throw new TypeError(`not a state hash: ${JSON.stringify(hash)}`)
    return [Number.parseInt(hash.slice(0, 8), 16), Number.parseInt(hash.slice(8), 16)]
  }
  const hex = (i: number): string => hi[i].toString(16).padStart(8, '0') + lo[i].toString(16).padStart(8, '0')
  return {
    add(hash) {
      const [h, l] = halves(hash)
      if (h === 0 && l === 0) return zero++ === 0 && ++size > 0
      const i = find(h, l)
      if (hi[i] === h && lo[i] === l) {
        if (counting) counts[i]++
        return false
      }
      hi[i] = h
      lo[i] = l
      if (counting) counts[i] = 1
      size++
      if (size * 2 > slots) grow()
      return true
    },
    has(hash) {
      return this.rowsOf(hash) > 0
    },
    rowsOf(hash) {
      const [h, l] = halves(hash)
      if (h === 0 && l === 0) return zero
      const i = find(h, l)
      return hi[i] === h && lo[i] === l ? (counting ? counts[i] : 1) : 0
    },
    *entries() {
      if (zero > 0) yield { stateHash: '0'.repeat(16), rows: zero }
      // The hashes as 64-bit integers, sorted without a comparator: V8 sorts those in place, where
      // a comparator makes it copy the array twice into its heap (16 bytes an entry).
      const keys = new BigUint64Array(size - (zero > 0 ? 1 : 0))
      for (let i = 0, n = 0; i < slots; i++) if (hi[i] !== 0 || lo[i] !== 0) keys[n++] = (BigInt(hi[i]) << 32n) | BigInt(lo[i])
      keys.sort()
      for (const key of keys) {
        const i = find(Number(key >> 32n), Number(key & 0xffffffffn))
        yield { stateHash: hex(i), rows: counting ? counts[i] : 1 }
      }
    },
    get size() {
      return size
    },
  }
}
