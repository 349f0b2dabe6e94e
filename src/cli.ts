#!/usr/bin/env node
import { enableCompileCache } from 'node:module'

// Node's compile cache keeps each module compiled, and from TypeScript source its stripped text,
// on disk for the next start (docs/configuration.md). The judge command (bin/judge.js) turns it on
// before this file loads; started as `node src/cli.ts`, this line does, after Node stripped this
// file. It must be on before the other modules load, so they are imported below, not above.
enableCompileCache()

await import('./quiet-warnings.ts')
const { invocation } = await import('./cli/invocation.ts')
const { runCli } = await import('./cli/run-cli.ts')
const { stopOnSignals } = await import('./cli/signals.ts')
const { packageInfo } = await import('./version.ts')

const stopper = stopOnSignals(
  process,
  (code) => process.exit(code),
  (line) => void process.stderr.write(line),
)

const launch = {
  script: process.argv[1] ?? '',
  execPath: process.execPath,
  env: process.env,
  cwd: process.cwd(),
  packageName: packageInfo().name,
}
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: stopper.signal,
  program: invocation(launch),
})
stopper.dispose()
