/**
 * The `judge-rows/server` entry: the HTTP server, as a handler to mount or a server to start, and
 * the configuration it is made from. It loads what serving takes and nothing of the CLI's batch
 * commands; each page is loaded on its first request (docs/architecture.md).
 *
 * @example
 * import { createHandler, JUDGE_ROUTES, readConfig } from 'judge-rows/server'
 * const handler = createHandler(readConfig(process.env, process.cwd()), { routes: JUDGE_ROUTES })
 * http.createServer((req, res) => handler(req, res, () => res.writeHead(404).end())).listen(8080)
 */
// First: on a Node without node:sqlite, the library says which Node it needs.
import './supported-node.ts'

export { createHandler } from './http/handler.ts'
export type { AnsweredBy, HandlerOptions, JudgeHandler } from './http/handler.ts'
export { startServer } from './http/server.ts'
export type { RunningServer } from './http/server.ts'
export { JUDGE_ROUTES, ROUTES } from './http/routes.ts'
export type { Route } from './http/router.ts'
export type { Endpoint } from './http/context.ts'
export { readConfig } from './config.ts'
export type { Config, EngineConfig, EngineKind } from './config.ts'
