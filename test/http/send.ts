import t from 'tap'
import type { ServerResponse } from 'node:http'
import { jsonReply } from '../../src/http/reply.ts'
import { send, sendRaw } from '../../src/http/send.ts'

function response(state: { headersSent?: boolean; destroyed?: boolean } = {}) {
  const written: unknown[] = []
  const res = {
    headersSent: false,
    destroyed: false,
    ...state,
    writeHead: (...a: unknown[]) => written.push(a),
    end: (b: string) => written.push(b),
  }
  return { res: res as unknown as ServerResponse, written }
}

t.test('a reply is written with its headers; a client gone or answered gets nothing more', async (t) => {
  const ok = response()
  send(ok.res, jsonReply({ a: 1 }))
  t.match(ok.written, [[200, { 'content-type': 'application/json; charset=utf-8', 'content-length': '7' }], '{"a":1}'])
  const raw = response()
  sendRaw(raw.res, 200, { 'x-a': 'b' }, 'hi')
  t.same(raw.written, [[200, { 'x-a': 'b' }], 'hi'])
  for (const state of [{ headersSent: true }, { destroyed: true }]) {
    const gone = response(state)
    send(gone.res, jsonReply({}))
    t.same(gone.written, [])
  }
})
