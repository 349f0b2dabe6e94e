import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// `tap build` before `npm test`: tap's plugin set is built into node_modules once for the plugins
// package.json names (a fresh clone has tap's defaults, the TypeScript plugin among them). The
// build takes about 7 s of CPU before any test starts, so it runs only when what it is built
// from changed since the last build: the plugin list, tap's version, or a fresh node_modules.

const ROOT = resolve(import.meta.dirname, '../..')

/** What the built plugin set depends on: package.json's tap plugins and the installed tap's version. */
export function buildKey(root = ROOT): string {
  const read = (file: string) =>
    JSON.parse(readFileSync(join(root, file), 'utf8')) as { version?: string; tap?: { plugin?: unknown } }
  return JSON.stringify({
    plugin: read('package.json').tap?.plugin ?? null,
    tap: read('node_modules/tap/package.json').version ?? null,
  })
}

/** Whether tap's plugin set must be built: never built here, or built from something else. */
export function needsBuild(stamp: string, key: string): boolean {
  return !existsSync(stamp) || readFileSync(stamp, 'utf8') !== key
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const stamp = join(ROOT, 'node_modules/.cache/run-suite/tap-build.json')
  const key = buildKey()
  if (needsBuild(stamp, key)) {
    const built = spawnSync(join(ROOT, 'node_modules/.bin/tap'), ['build'], { cwd: ROOT, stdio: 'inherit' })
    if (built.status !== 0) process.exit(built.status ?? 1)
    mkdirSync(dirname(stamp), { recursive: true })
    writeFileSync(stamp, key)
  }
}
