import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'

// Real file systems for the store's troubles: a small tmpfs fills up as a disk does, and a tmpfs
// remounted read-only refuses every write, to root too (root ignores file permissions, not a
// read-only mount). Mounting needs Linux and root, as the tests have here and in CI.

/** Why a tmpfs cannot be mounted here, or null when it can: the reason a test skips with. */
export function mountProblem(): string | null {
  if (process.platform !== 'linux') return `mounting a tmpfs needs Linux, not ${process.platform}`
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root'
  const dir = mkdtempSync(join(tmpdir(), 'judge-mount-'))
  try {
    mount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir])
    mount(['-o', 'remount,ro', dir])
    execFileSync('umount', [dir])
    return null
  } catch (error) {
    return `mount refused a tmpfs: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A tmpfs of `bytes` on a fresh folder, unmounted (and the folder removed) at the test's teardown. */
export function mountTmpfs(t: Test, bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'judge-tmpfs-'))
  mount(['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir])
  t.teardown(() => {
    // Lazily: a server the test started may still hold a file open while it stops.
    execFileSync('umount', ['-l', dir])
    rmSync(dir, { recursive: true, force: true })
  })
  return dir
}

/** Remounts the tmpfs at `dir` read-only (`ro`) or writable again (`rw`), or with room for `bytes`. */
export function remount(dir: string, mode: 'ro' | 'rw' | number): void {
  mount(['-o', `remount,${typeof mode === 'number' ? `size=${mode}` : mode}`, dir])
}

/** Fills the disk of `dir` with a file of zeros until no byte more fits; returns the file. */
export function fillDisk(dir: string): string {
  const file = join(dir, 'filler')
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(64 * 1024)
  try {
    for (let size = chunk.length; size >= 1; ) {
      try {
        writeSync(fd, chunk, 0, size)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
        size = Math.floor(size / 2)
      }
    }
  } finally {
    closeSync(fd)
  }
  return file
}

function mount(args: readonly string[]): void {
  execFileSync('mount', args, { stdio: ['ignore', 'ignore', 'pipe'] })
}
