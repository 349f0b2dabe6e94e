import { delimiter as PATH_SEPARATOR, dirname, basename, isAbsolute, relative } from 'node:path'

/** Where the running CLI came from, as its entry point sees it. */
export interface Launch {
  /** The script Node was given (process.argv[1]): a bin link, bin/judge.js, or src/cli.ts. */
  readonly script: string
  readonly execPath: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly cwd: string
  /** The package's name, for `npx <name>` when it was fetched rather than installed. */
  readonly packageName: string
}

/**
 * The command a user types to run judge again the way they just did, so that printed next steps
 * work as printed: `npx judge`, `npm run judge --`, `judge` when its folder is on PATH, or the
 * path of the script from the working folder.
 */
export function invocation(launch: Launch): string {
  const { script, env, cwd } = launch
  if (env.npm_command === 'exec') return installedBelow(script, cwd) ? 'npx judge' : `npx ${launch.packageName}`
  // npm 10 names the command of `npm run` run-script, npm 11 run.
  if ((env.npm_command === 'run' || env.npm_command === 'run-script') && env.npm_lifecycle_event)
    return `npm run ${shellWord(env.npm_lifecycle_event)} --`
  const withNode = `${pathFrom(cwd, launch.execPath)} ${pathFrom(cwd, script)}`
  if (script.endsWith('.ts')) return withNode
  const path = (env.PATH ?? '').split(PATH_SEPARATOR).filter((dir) => dir !== '')
  if (path.includes(dirname(script))) return basename(script)
  // Run by a Node that the script's `#!/usr/bin/env node` would not find (a clone's pinned Node,
  // node_modules/.bin/node bin/judge.js): with that Node, as it was run.
  return path.includes(dirname(launch.execPath)) ? pathFrom(cwd, script) : withNode
}

/** Whether a bin link sits in node_modules/.bin of the working folder or a folder above it, where npx finds it. */
function installedBelow(script: string, cwd: string): boolean {
  const bin = dirname(script)
  if (basename(bin) !== '.bin' || basename(dirname(bin)) !== 'node_modules') return false
  const up = relative(dirname(dirname(bin)), cwd)
  return !up.startsWith('..') && !isAbsolute(up)
}

/** A path as typed from `cwd`: relative unless the absolute path is shorter; quoted for the shell. */
export function pathFrom(cwd: string, path: string): string {
  const typed = typedPath(cwd, path)
  return shellWord(typed === path || typed.includes('/') ? typed : `./${typed}`)
}

/**
 * A path as a user would type it from `cwd`: relative to it (climbing with `..` where it must),
 * unless the absolute path is shorter or the path is `cwd` itself.
 */
export function typedPath(cwd: string, path: string): string {
  const rel = relative(cwd, path)
  return rel === '' || isAbsolute(rel) || rel.length > path.length ? path : rel
}

/** One word for a POSIX shell: as is when safe, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}
