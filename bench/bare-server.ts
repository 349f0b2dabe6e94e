import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

// The reference of bench/judge-http.ts: node:http answering a fixed JSON body, nothing else.
// The body comes from BARE_BODY so that it is as long as the judge server's answer.
const body = process.env.BARE_BODY ?? '{"ok":true}'
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)) }
const server = createServer((_req, res) => {
  res.writeHead(200, headers)
  res.end(body)
})
server.listen(0, '127.0.0.1', () => {
  process.stderr.write(`bare server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))
