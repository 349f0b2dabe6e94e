import v8 from 'node:v8'

/** What the heap limits read and set; node:v8 by default, a fake in tests. */
export interface HeapControl {
  newSpaceBytes(): number
  stopGrowing(): void
  /** Sets how far the old generation may grow past what a full collection left live, in percent. */
  oldGrowth(percent: number): void
  /** Stops V8 from compiling WebAssembly again with its optimizing tier. */
  stopWasmTierUp(): void
}

const V8_HEAP: HeapControl = {
  newSpaceBytes: () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0,
  // Read each time the young generation grows, so it takes effect on a running process.
  stopGrowing: () => v8.setFlagsFromString('--semi-space-growth-factor=1'),
  // Read each time a full collection sets the next limit, so it takes effect on a running process too.
  oldGrowth: (percent) => v8.setFlagsFromString(`--heap-growing-percent=${percent}`),
  // V8 optimizes only the function of this index, read each time a function has run enough to be
  // optimized: no module has that many functions. (`--no-wasm-tier-up` and `--liftoff-only` are
  // read once, as V8 starts, and have no effect later.)
  stopWasmTierUp: () => v8.setFlagsFromString(`--wasm-tier-up-filter=${2 ** 31 - 1}`),
}

/**
 * Stops V8's young generation from growing once it holds `maxMb`. V8 doubles it whenever enough
 * objects survive its collections, up to a size set by the machine's memory: a million-row
 * `judge run` took it to 134 MB, and its peak memory to 320 MB, for no gain in speed. Called by the
 * CLI's entry point only.
 * Returns a function that stops watching.
 */
export function capYoungGeneration(maxMb = 16, everyMs = 20, heap: HeapControl = V8_HEAP): () => void {
  const timer = setInterval(() => {
    if (heap.newSpaceBytes() < maxMb * 1024 * 1024) return
    heap.stopGrowing()
    clearInterval(timer)
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * Lets the old generation grow only `percent` past what the last full collection left live
 * (V8's own factor is 1.1 to 4 times, by allocation rate). A long `judge run` keeps some 25 MB live
 * but promotes garbage steadily (rows, answers, engine requests in flight); with V8's factor that
 * garbage reached 70 MB of old generation before it was collected, with 15% about 30 MB, at a
 * cost in speed lost in the noise of the machine. Called by the CLI's entry point only.
 */
export function limitOldGeneration(percent = 15, heap: HeapControl = V8_HEAP): void {
  heap.oldGrowth(percent)
}

/**
 * Keeps WebAssembly at V8's baseline tier. The engine adapters send with `fetch`, whose HTTP
 * parser (undici's llhttp) is WebAssembly; after a few thousand responses V8 optimized it on its
 * worker threads, in compiler memory that glibc then kept in those threads' arenas: some 20 MB of
 * a million-row `judge run`'s peak (docs/benchmarks.md). Called by the CLI's entry point only.
 */
export function holdWasmAtBaseline(heap: HeapControl = V8_HEAP): void {
  heap.stopWasmTierUp()
}
