import cluster from 'node:cluster'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

// The reference of bench/judge-http.ts: node:http answering a fixed JSON body, nothing else.
// The body comes from BARE_BODY so that it is as long as the judge server's answer; BARE_WORKERS
// processes share the port through node:cluster, as `judge serve --workers` does.
const body = process.env.BARE_BODY ?? '{"ok":true}'
const workers = Number(process.env.BARE_WORKERS ?? 1)
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }

if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork()
  let listening = 0
  cluster.on('listening', (_worker, address) => {
    if (++listening === workers) process.stderr.write(`bare server listening on http://127.0.0.1:${address.port}\n`)
  })
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    cluster.on('exit', () => Object.keys(cluster.workers ?? {}).length === 0 && process.exit(0))
  })
} else {
  const server = createServer((_req, res) => {
    res.writeHead(200, headers)
    res.end(body)
  })
  server.listen(0, '127.0.0.1', () => {
    if (cluster.isPrimary)
      process.stderr.write(`bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`)
  })
  process.once('SIGTERM', () => server.close(() => process.exit(0)))
}
