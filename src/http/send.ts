import type { ServerResponse } from 'node:http'
import { headersOf, type Reply } from './reply.ts'

/** Writes a reply out: the one place a response is written. A client that hung up gets nothing. */
export function send(res: ServerResponse, reply: Reply): void {
  sendRaw(res, reply.status, headersOf(reply), reply.body)
}

/** Writes a response whose headers are already made (a kept reply). */
export function sendRaw(
  res: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
): void {
  // The work the client asked for is done and stored all the same.
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, headers)
  res.end(body)
}
