import { readFileSync } from 'node:fs'

/** The package's name and version, from its package.json. */
export interface PackageInfo {
  readonly name: string
  readonly version: string
}

/**
 * Reads the package's package.json. Read from the file rather than imported so that the source
 * (src/) and the compiled package (dist/) find it at the same relative place.
 */
export function packageInfo(): PackageInfo {
  const json = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, unknown>
  const text = (value: unknown) => (typeof value === 'string' ? value : 'unknown')
  return { name: text(json.name), version: text(json.version) }
}
