import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import v8 from 'node:v8'

// Preloaded (node --import) into a measured process, e.g. by bench/run-memory.ts:
//   node bench/run-memory.ts --node-args "--import $PWD/bench/memory-sampler.js" --child-env "MEMORY_SAMPLES=/tmp/run.jsonl"
// Every 100 ms it appends one JSON line to the file MEMORY_SAMPLES names: the resident set from
// /proc/self/status (all of it, its anonymous and file-backed parts, the high-water mark) and V8's
// view (each heap space's size, external memory, array buffers), in kB. At exit it adds a line
// that splits the resident set by mapping from /proc/self/smaps. Read them with
// `node bench/memory-summary.ts FILE`. JavaScript, not TypeScript, so that it does not load Node's
// type stripper into the process it measures.

const OUT = process.env.MEMORY_SAMPLES ?? 'memory-samples.jsonl'
const started = performance.now()
writeFileSync(OUT, '')

const kb = (text, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0)

function sample() {
  const status = readFileSync('/proc/self/status', 'utf8')
  const usage = process.memoryUsage()
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size >> 10]))
  const line = {
    t: Math.round(performance.now() - started),
    rss: kb(status, 'VmRSS'),
    hwm: kb(status, 'VmHWM'),
    anon: kb(status, 'RssAnon'),
    file: kb(status, 'RssFile'),
    heap: usage.heapTotal >> 10,
    used: usage.heapUsed >> 10,
    external: usage.external >> 10,
    arrayBuffers: usage.arrayBuffers >> 10,
    newSpace: spaces.new_space ?? 0,
    oldSpace: spaces.old_space ?? 0,
    codeSpace: spaces.code_space ?? 0,
    largeObjects: spaces.large_object_space ?? 0,
    trusted: spaces.trusted_space ?? 0,
  }
  appendFileSync(OUT, JSON.stringify(line) + '\n')
}

/**
 * The resident set by kind of mapping: the node binary and other files; glibc's main heap; its
 * thread arenas (anonymous, at 64 MB boundaries); V8's heap pages (anonymous, 256 kB each); other
 * anonymous mappings of 1 MB or more (large array buffers) and the rest.
 */
function mappings() {
  const parts = { binary: 0, files: 0, mallocHeap: 0, mallocArenas: 0, v8Pages: 0, largeAnonymous: 0, other: 0 }
  let kind = 'other'
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) {
      const [start, end, perms, name] = [Number.parseInt(head[1], 16), Number.parseInt(head[2], 16), head[3], head[4]]
      const size = end - start
      if (name.endsWith('/node')) kind = 'binary'
      else if (name.startsWith('/')) kind = 'files'
      else if (name === '[heap]') kind = 'mallocHeap'
      else if (name !== '') kind = 'other'
      else if (size === 256 * 1024) kind = 'v8Pages'
      else if (perms === 'rw-p' && start % (64 * 1024 * 1024) === 0 && size <= 64 * 1024 * 1024) kind = 'mallocArenas'
      else if (size >= 1024 * 1024 && perms === 'rw-p') kind = 'largeAnonymous'
      else kind = 'other'
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss) parts[kind] += Number(rss[1])
  }
  return parts
}

setInterval(sample, 100).unref()
process.on('exit', () => {
  sample()
  appendFileSync(OUT, JSON.stringify({ smaps: mappings() }) + '\n')
})
