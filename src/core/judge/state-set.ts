/**
 * A set of state hashes (16 hex digits, as stateHash gives) held as 64-bit integers in typed
 * arrays: 8 bytes a slot, at most 80% of the slots full, where a Set of strings takes over 100
 * bytes a hash. The planner counts the distinct states of a data file of any size with it.
 */
export interface StateSet {
  /** Adds a hash; true when it was not in the set before. */
  add(hash: string): boolean
  has(hash: string): boolean
  readonly size: number
}

/** A StateSet that also counts how many times each hash was added: the rows of a run per state. */
export interface StateTally extends StateSet {
  /** Adds a hash and returns how many times it has been added now: 1 the first time. */
  count(hash: string): number
  /** How many times `hash` was added (0 when never). */
  rowsOf(hash: string): number
  /** Every hash with its count, in hash order (as the store's run-state table is keyed). */
  entries(): Iterable<{ readonly stateHash: string; readonly rows: number }>
}

const HASH = /^[0-9a-f]{16}$/
/** The most of its home slots a table fills before it doubles. */
const LOAD = 0.8
/** Slots past the last home slot, so that the last run of full slots need not wrap around. */
const TAIL = 1024
/** A count kept in a slot's byte; the rows beyond it are kept aside, by hash. */
const BYTE_MAX = 255

/** An empty StateSet with room for `capacity` hashes before it first grows. */
export function createStateSet(capacity = 1024): StateSet {
  return createTable(capacity, false)
}

/**
 * An empty StateTally: 9 bytes a slot, at most 80% full, so 11 to 12 bytes a state when made at the size it will hold.
 */
export function createStateTally(capacity = 1024): StateTally {
  return createTable(capacity, true)
}

/** The tables of the sets made here, for a tally to take over. */
const tables = new WeakMap<StateSet, () => Table>()

/**
 * An empty StateTally over the hashes of `expected` (a set or a tally), whose table it takes over
 * (`expected` must not be used after): it counts as an empty tally does, but the hashes already in
 * `expected` take no room of their own, only a byte each for their count. A run takes over its
 * plan's distinct states so, where a tally of its own took 11 bytes a state more (docs/benchmarks.md).
 */
export function tallyOver(expected: StateSet): StateTally {
  const table = tables.get(expected)
  if (!table) throw new TypeError('not a set or tally made here, or one already taken over')
  tables.delete(expected)
  return createTable(0, true, table())
}

/** A table's slots and their layout, as a tally takes it over. */
interface Table {
  readonly homes: number
  readonly tail: number
  readonly hi: Uint32Array<ArrayBuffer>
  readonly lo: Uint32Array<ArrayBuffer>
  /** Slots holding a hash. */
  readonly filled: number
  /** A tally's counts, zeroed and taken over with its slots; a set has none. */
  readonly counts: Uint8Array<ArrayBuffer> | null
}

/**
 * An ordered hash table with linear probing (Amble and Knuth): a hash's home slot grows with the
 * hash, and each run of full slots is kept in hash order, so the slots read in order are every
 * hash in order. The tally of a million states is then written sorted without a sorted copy, and
 * a lookup stops at the first larger hash. Counts are a byte a slot; the few beyond 255 rows
 * are kept in a Map. A tally made over a set's table holds the set's hashes at a count of 0: not
 * yet counted, so neither listed nor part of its size.
 */
function createTable(capacity: number, counting: boolean, from?: Table): StateTally {
  let homes = from?.homes ?? Math.max(16, Math.ceil(capacity / LOAD))
  let hi = new Uint32Array(0)
  let lo = new Uint32Array(0)
  let counts = new Uint8Array(0)
  const beyond = new Map<string, number>()
  let size = 0
  /** Slots holding a hash: the size, less the zero hash, plus the hashes taken over and not yet counted. */
  let filled = from?.filled ?? 0
  let zero = 0
  let tail = from?.tail ?? Math.min(homes, TAIL)
  const allocate = (): void => {
    const slots = homes + tail
    hi = new Uint32Array(slots)
    lo = new Uint32Array(slots)
    counts = new Uint8Array(counting ? slots : 0)
  }
  if (from) [hi, lo, counts] = [from.hi, from.lo, from.counts?.fill(0) ?? new Uint8Array(from.hi.length)]
  else allocate()

  // A slot is empty when both halves are 0; the hash 0000000000000000 is kept aside.
  const home = (h: number): number => Math.floor((h * homes) / 0x1_0000_0000)
  /**
   * The slot holding the hash, or where it would go: the first slot empty or holding a larger hash; the end when none.
   */
  const find = (h: number, l: number): number => {
    let i = home(h)
    while (i < hi.length && (hi[i] !== 0 || lo[i] !== 0) && (hi[i] < h || (hi[i] === h && lo[i] < l))) i++
    return i
  }
  /** Home slots `factor` times as many, the hashes placed again in order; the tail doubles until they fit. */
  const rebuild = (factor: number): void => {
    const [oldHi, oldLo, oldCounts] = [hi, lo, counts]
    homes *= factor
    tail = Math.max(tail, Math.min(homes, TAIL))
    allocate()
    while (!placeAll(oldHi, oldLo, oldCounts)) {
      tail *= 2
      allocate()
    }
  }
  /** Places a table's hashes in order, each at its home or just after the one before; false when they pass the end. */
  const placeAll = (oldHi: Uint32Array, oldLo: Uint32Array, oldCounts: Uint8Array): boolean => {
    for (let i = 0, next = 0; i < oldHi.length; i++) {
      if (oldHi[i] === 0 && oldLo[i] === 0) continue
      const j = Math.max(home(oldHi[i]), next)
      if (j === hi.length) return false
      hi[j] = oldHi[i]
      lo[j] = oldLo[i]
      if (counting) counts[j] = oldCounts[i]
      next = j + 1
    }
    return true
  }
  /**
   * Puts a new hash at slot `at`, moving the run of full slots from there one slot on; false when the run reaches the
   * end.
   */
  const insert = (at: number, h: number, l: number): boolean => {
    let empty = at
    while (empty < hi.length && (hi[empty] !== 0 || lo[empty] !== 0)) empty++
    if (empty === hi.length) return false
    hi.copyWithin(at + 1, at, empty)
    lo.copyWithin(at + 1, at, empty)
    if (counting) counts.copyWithin(at + 1, at, empty)
    hi[at] = h
    lo[at] = l
    if (counting) counts[at] = 1
    return true
  }
  const halves = (hash: string): [number, number] => {
    if (!HASH.test(hash)) throw new TypeError(`not a state hash: ${JSON.stringify(hash)}`)
    return [Number.parseInt(hash.slice(0, 8), 16), Number.parseInt(hash.slice(8), 16)]
  }
  const held = (i: number, h: number, l: number): boolean => i < hi.length && hi[i] === h && lo[i] === l
  const hex = (i: number): string => hi[i].toString(16).padStart(8, '0') + lo[i].toString(16).padStart(8, '0')
  const rowsAt = (i: number, hash: string): number =>
    counts[i] === BYTE_MAX ? BYTE_MAX + (beyond.get(hash) ?? 0) : counts[i]
  /** Adds a hash; its rows now (a set counts 1 the first time and 2 after). */
  const put = (hash: string): number => {
    const [h, l] = halves(hash)
    if (h === 0 && l === 0) {
      if (zero++ === 0) size++
      return zero
    }
    let i = find(h, l)
    if (held(i, h, l)) {
      if (!counting) return 2
      if (counts[i] === 0) size++
      if (counts[i] < BYTE_MAX) counts[i]++
      else beyond.set(hash, (beyond.get(hash) ?? 0) + 1)
      return rowsAt(i, hash)
    }
    if (filled + 1 > homes * LOAD) rebuild(2)
    // Hashes crowded at the end of the order (hardly ever) need a longer tail.
    while (!insert((i = find(h, l)), h, l)) {
      tail *= 2
      rebuild(1)
    }
    size++
    filled++
    return 1
  }
  const set: StateTally = {
    add(hash) {
      return put(hash) === 1
    },
    count: put,
    has(hash) {
      return this.rowsOf(hash) > 0
    },
    rowsOf(hash) {
      const [h, l] = halves(hash)
      if (h === 0 && l === 0) return zero
      const i = find(h, l)
      return held(i, h, l) ? (counting ? rowsAt(i, hash) : 1) : 0
    },
    *entries() {
      if (zero > 0) yield { stateHash: '0'.repeat(16), rows: zero }
      for (let i = 0; i < hi.length; i++) {
        if ((hi[i] === 0 && lo[i] === 0) || (counting && counts[i] === 0)) continue
        const stateHash = hex(i)
        yield { stateHash, rows: counting ? rowsAt(i, stateHash) : 1 }
      }
    },
    get size() {
      return size
    },
  }
  tables.set(set, () => ({ homes, tail, hi, lo, filled, counts: counting ? counts : null }))
  return set
}
