import type { ServerResponse } from 'node:http'
import { idOf, REQUEST_ID_HEADER } from './ops/request-id.ts'
import { headersOf, type Reply } from './reply.ts'

/** Writes a reply out: the one place a response is written, with its request id. A client that hung up gets nothing. */
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
  const id = idOf(res)
  // One object of headers, the request's id among them: node:http's quick way, where headers set
  // one by one beforehand (setHeader) make it validate and copy each of them again. Written so,
  // they are not the response's getHeader: they are kept on it for whoever logs it (sentHeaders).
  const all = id === null ? headers : { ...headers, [REQUEST_ID_HEADER]: id }
  ;(res as Sent)[SENT] = all
  res.writeHead(status, all)
  res.end(body)
}

const SENT = Symbol('headers sent')
type Sent = ServerResponse & { [SENT]?: Readonly<Record<string, string>> }

/** The headers a response was written with by sendRaw; undefined before. */
export function sentHeaders(res: ServerResponse): Readonly<Record<string, string>> | undefined {
  return (res as Sent)[SENT]
}
