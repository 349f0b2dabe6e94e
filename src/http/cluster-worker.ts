import { JudgeError } from '../errors.ts'
import { serveUntil } from './server.ts'
import type { WorkerOrder } from './workers.ts'

// A worker process of `judge serve --workers` (src/http/workers.ts): it serves the configuration
// its primary sends, on the primary's port, until SIGTERM or SIGINT (or until the primary is gone),
// finishing its requests in flight, then exits.
const log = (line: string): void => void process.stderr.write(`${line}\n`)
const controller = new AbortController()
const stop = () => controller.abort()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
process.once('disconnect', stop)

process.once('message', async (order: WorkerOrder) => {
  try {
    await serveUntil(order.config, { log, signal: controller.signal })
    process.exit(0)
  } catch (error) {
    log(`judge server: ${error instanceof JudgeError ? error.message : ((error as Error)?.stack ?? String(error))}`)
    process.exit(error instanceof JudgeError ? error.exitCode : 1)
  }
})
