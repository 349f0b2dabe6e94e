import { readFileSync, statSync } from 'node:fs'
import { basename } from 'node:path'

// In WAL mode a writer holds a POSIX lock on one byte of the store's `-shm` file: WAL_WRITE_LOCK
// (0) past UNIX_SHM_BASE (120), in SQLite's os_unix.c. Linux lists every such lock in /proc/locks,
// with the process that holds it; other systems offer no such list.
const WRITE_LOCK_BYTE = 120n

/** Where lockHolder looks: the system's lists by default, text in tests. */
export interface LockSources {
  /** The text of /proc/locks, or null where there is none. */
  readonly locks?: () => string | null
  /** The command line of a process (its NUL-separated arguments), or null when it is gone. */
  readonly commandLine?: (pid: number) => string | null
  /** This process's id. */
  readonly pid?: number
}

/**
 * Who holds the write lock of the store `file`, in words for a message: `pid 4242: node judge.js
 * run`, `another connection of this process`, or `another process` when the system does not say
 * (not Linux, or the holder let go meanwhile). Reads only lists the system keeps; never throws.
 */
export function lockHolder(file: string, sources: LockSources = {}): string {
  const { locks = procLocks, commandLine = procCommandLine, pid: self = process.pid } = sources
  const pid = writerOf(`${file}-shm`, locks)
  if (pid === null) return 'another process'
  if (pid === self) return 'another connection of this process'
  const [program, ...args] = (commandLine(pid) ?? '').split('\0').filter(Boolean)
  if (program === undefined) return `pid ${pid}`
  // The program and its first two arguments that are no flags, each by its last part: enough to
  // tell `judge run` from `sqlite3`, without the paths or values of flags, which may be private.
  const words = [program, ...args.filter((arg) => !arg.startsWith('-')).slice(0, 2)].map((arg) =>
    basename(arg).slice(0, 40),
  )
  return `pid ${pid}: ${words.join(' ')}`
}

/** The process holding the write lock byte of `shm`, or null. */
function writerOf(shm: string, locks: () => string | null): number | null {
  const found = statSync(shm, { throwIfNoEntry: false, bigint: true })
  if (!found) return null
  const id = `${hex(major(found.dev))}:${hex(minor(found.dev))}:${found.ino}`
  for (const line of (locks() ?? '').split('\n')) {
    // `1: POSIX  ADVISORY  WRITE 4242 fe:00:2147589 120 120`; a waiter's line has `->` after its number.
    const m = /^\d+:\s+POSIX\s+ADVISORY\s+WRITE\s+(\d+)\s+(\S+)\s+(\d+)\s+(\d+|EOF)\s*$/.exec(line)
    if (!m || m[2] !== id) continue
    if (BigInt(m[3]) <= WRITE_LOCK_BYTE && (m[4] === 'EOF' || BigInt(m[4]) >= WRITE_LOCK_BYTE)) return Number(m[1])
  }
  return null
}

// A device number as glibc's major() and minor() read it, printed as /proc/locks prints them.
function major(dev: bigint): bigint {
  return ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & 0xfffff000n)
}

function minor(dev: bigint): bigint {
  return (dev & 0xffn) | ((dev >> 12n) & 0xffffff00n)
}

function hex(n: bigint): string {
  return n.toString(16).padStart(2, '0')
}

function procLocks(): string | null {
  return readOrNull('/proc/locks')
}

function procCommandLine(pid: number): string | null {
  return readOrNull(`/proc/${pid}/cmdline`)
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}
