#!/usr/bin/env node
// The `judge` command: of the installed package, and of a clone of its repository. Plain
// JavaScript that older Node versions parse too, so that they get this message instead of a
// failure inside the compiled code.
import { existsSync } from 'node:fs'
import * as nodeModule from 'node:module'

const version = process.versions.node
if (Number(version.split('.')[0]) < 24) {
  process.stderr.write(
    `judge needs Node 24 or newer (it uses node:sqlite); this is Node ${version} (${process.execPath}).\n` +
      'Install Node 24 from https://nodejs.org/ (or with nvm: nvm install 24), or pin it in your project\n' +
      'with npm install --save-dev node@24: npx judge and npm scripts then run with it.\n',
  )
  process.exit(2)
}

// A command that reads every row of a data file or of the kept rows starts again as itself
// (process.execve, where there is one) with V8 flags that hold its memory, each read once as V8
// starts (docs/cli.md; figures in docs/benchmarks.md). Shorter commands and the server keep V8's
// defaults.
const ROW_FLAGS = [
  // Compile on the main thread: compiled on V8's worker threads, each thread's compiler memory
  // stayed in a malloc arena of its own, some 15 to 25 MB of a million-row run's peak.
  '--no-concurrent-recompilation',
  // A young generation of 16 MB (two semi-spaces of 8); V8 grows it to 128 MB while objects
  // survive its collections, at no gain in speed.
  '--max-semi-space-size=8',
  // The old generation grows 15% past what a full collection left live, not V8's 1.1 to 4 times:
  // a run promotes garbage steadily (rows, answers, requests in flight).
  '--heap-growing-percent=15',
  // WebAssembly (fetch's HTTP parser) stays at its baseline tier: its optimizing compile took
  // some 20 MB of compiler memory on a worker thread, which glibc kept.
  '--liftoff-only',
]
const ROW_COMMANDS = ['run', 'plan', 'replay', 'compare']
if (
  ROW_COMMANDS.includes(process.argv[2]) &&
  typeof process.execve === 'function' &&
  !process.execArgv.includes(ROW_FLAGS[0])
) {
  try {
    process.execve(process.execPath, [process.execPath, ...ROW_FLAGS, ...process.execArgv, ...process.argv.slice(1)])
  } catch {
    // Not started again (a system refusing exec): the command runs as it was started.
  }
}

// Node's compile cache, on before any module of judge loads (docs/configuration.md): a later start
// reads each module back compiled. In a clone, where this runs the TypeScript source, it also
// reads back each module's stripped text, so that Node's type stripper (some 17 MB resident for
// the whole run) is not loaded at all; `node src/cli.ts` strips its own file on every start.
nodeModule.enableCompileCache()

// The source when it is there (a clone: its dist/ may be older than its src/), else the package's
// compiled code; the published package holds no src/.
const source = new URL('../src/cli.ts', import.meta.url)
import(existsSync(source) ? source.href : '../dist/cli.js').catch((error) => {
  // A package built without its dist/: say how to build it rather than where it failed.
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('judge: dist/cli.js is missing; run npm run build in the package first\n')
    process.exit(2)
  }
  throw error
})
