import type { ReceivedRequest, ScriptedReply } from './system-one-server.ts'

/**
 * What becomes of one line of a batch's input: answered (the default), failed with a response of
 * that status (`{status, message}`, in the error file), failed with an error of that code
 * (`{code, message}`, in the error file), or left unanswered: written to the error file as
 * `batch_expired` or `batch_cancelled` when the batch ends so, and missing from both files when it completes.
 */
export type LineFate =
  | 'answer'
  | 'unanswered'
  | { readonly status: number; readonly message: string }
  | { readonly code: string; readonly message: string }

/** How one batch behaves, by the order it was created in. */
export interface BatchBehaviour {
  /**
   * GET /batches/{id} it takes to end (default 1): on the way it is `in_progress`, then
   * `finalizing` on the last poll before the end; 0 ends it as it is created.
   */
  readonly polls?: number
  /** How it ends: `completed` (default), `expired` or `cancelled` by the provider, or `failed` validation. */
  readonly end?: 'completed' | 'expired' | 'cancelled' | 'failed'
  /** The fate of line `index` of its input file, by its custom id. */
  readonly line?: (customId: string, index: number) => LineFate | undefined
}

/** A file the server holds: an upload, or a batch's output or error file. */
export interface HeldFile {
  readonly id: string
  readonly purpose: string
  readonly filename: string
  readonly text: string
}

/** A batch the server holds, as the provider keeps it. */
export interface HeldBatch {
  readonly id: string
  readonly inputFileId: string
  readonly metadata: Readonly<Record<string, string>> | null
  readonly behaviour: BatchBehaviour
  status: string
  polls: number
  outputFileId: string | null
  errorFileId: string | null
  counts: { total: number; completed: number; failed: number }
  errors: { code: string; message: string; line: number | null }[]
}

/** Ends a batch as `end`: its files written, its counts and status set. */
type Finish = (batch: HeldBatch, end: NonNullable<BatchBehaviour['end']>) => void

/** The files and batches routes of the local OpenAI-compatible server. */
export interface BatchRoutes {
  readonly files: Map<string, HeldFile>
  /** In the order they were created. */
  readonly batches: HeldBatch[]
  /** The reply to a request of /v1/files or /v1/batches, with its body's raw bytes. */
  reply(request: ReceivedRequest, raw: Buffer): Promise<ScriptedReply>
}

/** Whether a request is for the files or batches routes. */
export function isBatchRoute(path: string): boolean {
  return /^\/v1\/(files|batches)(\/|\?|$)/.test(path)
}

/**
 * The Batch API's files and batches over `chat`, the reply the server gives one chat completions
 * body, so that a line of a batch is answered exactly as the same request sent alone.
 */
export function createBatchRoutes(
  chat: (body: unknown) => ScriptedReply,
  behaviour: (index: number) => BatchBehaviour = () => ({}),
): BatchRoutes {
  const files = new Map<string, HeldFile>()
  const batches: HeldBatch[] = []
  const hold = (purpose: string, filename: string, text: string): HeldFile => {
    const file = { id: `file-${files.size + 1}`, purpose, filename, text }
    files.set(file.id, file)
    return file
  }
  const finish: Finish = (batch, end) => endBatch(batch, end, files.get(batch.inputFileId)!.text, chat, hold)
  async function reply(request: ReceivedRequest, raw: Buffer): Promise<ScriptedReply> {
    const url = new URL(request.path, 'http://local')
    const [, , route, id, action] = url.pathname.split('/')
    if (route === 'files' && request.method === 'POST' && id === undefined) return upload(request, raw, hold)
    if (route === 'files' && request.method === 'GET' && id !== undefined) return fileReply(files.get(id), action)
    if (route !== 'batches') return failure(404, 'not found')
    if (request.method === 'POST' && id === undefined) return create(request.body, files, batches, behaviour, finish)
    if (request.method === 'GET' && id === undefined) return { status: 200, body: list(batches, url.searchParams) }
    const batch = batches.find((b) => b.id === id)
    if (!batch) return failure(404, `No batch found with id '${id}'.`)
    if (request.method === 'GET' && action === undefined) return { status: 200, body: poll(batch, finish) }
    if (request.method === 'POST' && action === 'cancel') return cancel(batch)
    return failure(404, 'not found')
  }
  return { files, batches, reply }
}

async function upload(
  request: ReceivedRequest,
  raw: Buffer,
  hold: (purpose: string, filename: string, text: string) => HeldFile,
): Promise<ScriptedReply> {
  const type = String(request.headers['content-type'] ?? '')
  if (!type.startsWith('multipart/form-data')) return failure(400, 'a file upload is multipart/form-data')
  const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData()
  const purpose = form.get('purpose')
  const file = form.get('file')
  if (purpose !== 'batch') return failure(400, `purpose must be batch, not ${JSON.stringify(purpose)}`)
  if (!(file instanceof File)) return failure(400, 'the form has no file')
  const held = hold('batch', file.name, await file.text())
  return { status: 200, body: fileObject(held) }
}

function fileReply(file: HeldFile | undefined, action: string | undefined): ScriptedReply {
  if (!file) return failure(404, 'No such File object')
  if (action === 'content')
    return { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: file.text }
  return { status: 200, body: fileObject(file) }
}

function fileObject(file: HeldFile): object {
  const bytes = Buffer.byteLength(file.text)
  return {
    id: file.id,
    object: 'file',
    bytes,
    created_at: 1_700_000_000,
    filename: file.filename,
    purpose: file.purpose,
  }
}

function create(
  body: any,
  files: Map<string, HeldFile>,
  batches: HeldBatch[],
  behaviour: (index: number) => BatchBehaviour,
  finish: Finish,
): ScriptedReply {
  if (!files.has(body?.input_file_id)) return failure(404, `No such File object: ${body?.input_file_id}`)
  if (body.endpoint !== '/v1/chat/completions') return failure(400, `unsupported endpoint ${body.endpoint}`)
  if (body.completion_window !== '24h') return failure(400, 'completion_window must be 24h')
  const metadata = body.metadata ?? null
  if (metadata !== null && !Object.values(metadata).every((v) => typeof v === 'string'))
    return failure(400, 'metadata values are strings')
  const script = behaviour(batches.length)
  const batch: HeldBatch = {
    ...{ id: `batch_${batches.length + 1}`, inputFileId: body.input_file_id, metadata, behaviour: script },
    ...{ status: 'validating', polls: 0, outputFileId: null, errorFileId: null, errors: [] },
    counts: { total: 0, completed: 0, failed: 0 },
  }
  batches.push(batch)
  if ((script.polls ?? 1) === 0) finish(batch, script.end ?? 'completed')
  return { status: 200, body: batchObject(batch) }
}

/** One GET of a batch: it moves one step towards its end. */
function poll(batch: HeldBatch, finish: Finish): object {
  if (batch.status === 'cancelling') finish(batch, 'cancelled')
  if (!['validating', 'in_progress', 'finalizing'].includes(batch.status)) return batchObject(batch)
  const polls = batch.behaviour.polls ?? 1
  batch.polls += 1
  if (batch.polls >= polls) finish(batch, batch.behaviour.end ?? 'completed')
  else batch.status = batch.polls === polls - 1 ? 'finalizing' : 'in_progress'
  return batchObject(batch)
}

function cancel(batch: HeldBatch): ScriptedReply {
  if (!['validating', 'in_progress', 'finalizing'].includes(batch.status))
    return failure(409, `Cannot cancel a batch with status ${batch.status}.`)
  batch.status = 'cancelling'
  return { status: 200, body: batchObject(batch) }
}

/** GET /batches: newest first, `limit` (default 20, at most 100) after the batch `after`. */
function list(batches: readonly HeldBatch[], query: URLSearchParams): object {
  const newest = [...batches].reverse()
  const after = query.get('after')
  const start = after === null ? 0 : newest.findIndex((b) => b.id === after) + 1
  const limit = Math.min(100, Number(query.get('limit') ?? 20))
  const page = newest.slice(start, start + limit)
  return {
    object: 'list',
    data: page.map(batchObject),
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
    has_more: start + limit < newest.length,
  }
}

/** The batch object the API answers with. */
function batchObject(batch: HeldBatch): object {
  return {
    id: batch.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    errors:
      batch.errors.length === 0 ? null : { object: 'list', data: batch.errors.map((e) => ({ ...e, param: null })) },
    input_file_id: batch.inputFileId,
    completion_window: '24h',
    status: batch.status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: 1_700_000_000,
    request_counts: batch.counts,
    metadata: batch.metadata,
  }
}

/** Validates the input file and answers or fails each line as the batch's behaviour says, writing the files. */
function endBatch(
  batch: HeldBatch,
  end: NonNullable<BatchBehaviour['end']>,
  input: string,
  chat: (body: unknown) => ScriptedReply,
  hold: (purpose: string, filename: string, text: string) => HeldFile,
): void {
  const lines = input.split('\n').filter((line) => line !== '')
  batch.errors = end === 'failed' ? [{ code: 'invalid_request', message: 'the batch failed', line: null }] : []
  batch.errors.push(...validate(lines))
  if (batch.errors.length > 0) {
    batch.status = 'failed'
    return
  }
  const output: string[] = []
  const errors: string[] = []
  lines.forEach((text, i) => {
    const line = JSON.parse(text)
    // A batch its client cancelled answers nothing more; one the provider ends follows its script.
    const fate = batch.status === 'cancelling' ? 'unanswered' : (batch.behaviour.line?.(line.custom_id, i) ?? 'answer')
    const written = resultLine(line, i, fate, end, chat)
    if (written) (written.ok ? output : errors).push(JSON.stringify(written.line))
  })
  const file = (kind: string, rows: string[]) =>
    rows.length === 0 ? null : hold('batch_output', `${batch.id}_${kind}.jsonl`, `${rows.join('\n')}\n`).id
  batch.outputFileId = file('output', output)
  batch.errorFileId = file('error', errors)
  batch.counts = { total: lines.length, completed: output.length, failed: errors.length }
  batch.status = end
}

function resultLine(
  line: any,
  i: number,
  fate: LineFate,
  end: string,
  chat: (body: unknown) => ScriptedReply,
): { ok: boolean; line: object } | null {
  const id = { id: `batch_req_${i + 1}`, custom_id: line.custom_id }
  const response = (status: number, body: unknown) => ({ status_code: status, request_id: `req_${i + 1}`, body })
  if (fate === 'unanswered') {
    if (end === 'completed') return null
    const code = end === 'expired' ? 'batch_expired' : 'batch_cancelled'
    return { ok: false, line: { ...id, response: null, error: { code, message: `the batch was ${end}` } } }
  }
  if (fate !== 'answer' && 'code' in fate)
    return { ok: false, line: { ...id, response: null, error: { code: fate.code, message: fate.message } } }
  const reply =
    fate === 'answer'
      ? chat(line.body)
      : { status: fate.status, body: { error: { message: fate.message, type: 'server_error', code: null } } }
  return { ok: reply.status === 200, line: { ...id, response: response(reply.status, reply.body), error: null } }
}

/** The input file's problems, as the provider reports them: JSON lines with a unique custom id, POST, the batch's url and a body. */
function validate(lines: readonly string[]): { code: string; message: string; line: number }[] {
  const seen = new Set<string>()
  return lines.flatMap((text, i) => {
    let line: any
    try {
      line = JSON.parse(text)
    } catch {
      return [{ code: 'invalid_json_line', message: 'This line is not parseable as valid JSON.', line: i + 1 }]
    }
    const problem =
      typeof line?.custom_id !== 'string' || seen.has(line.custom_id)
        ? 'custom_id must be a unique string'
        : line.method !== 'POST' || line.url !== '/v1/chat/completions'
          ? 'each line must POST /v1/chat/completions'
          : typeof line.body !== 'object' || line.body === null
            ? 'each line must have a body'
            : null
    seen.add(line?.custom_id)
    return problem === null ? [] : [{ code: 'invalid_request', message: problem, line: i + 1 }]
  })
}

function failure(status: number, message: string): ScriptedReply {
  return { status, body: { error: { message, type: 'invalid_request_error', code: null } } }
}
