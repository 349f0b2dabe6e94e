import type { BatchLane, BatchStatus } from '../../ports/engine.ts'
import { laneSettings, sentText, type BatchLaneOptions, type BatchTarget } from '../batch-lane.ts'
import { isRecord, jsonObject, shown, unusable } from '../engine-answer.ts'
import { sendTo, type Posted } from '../engine-http.ts'
import { sendRepeated } from '../engine-repeat.ts'
import { downloadLines, gatherOutcomes } from './openai-batch-collect.ts'
import {
  BATCH_ENDPOINT,
  OPENAI_BATCH_LIMITS,
  packItems,
  packLines,
  TAG_KEY,
  tagOf,
  toBatchStatus,
} from './openai-batch-wire.ts'

/** Options of the OpenAI bulk lane: by default OpenAI's limits, 50,000 requests and 200 MB a batch. */
export interface OpenAiBatchOptions extends BatchLaneOptions {
  /** Batches asked for per page of the provider's list; default 100, the most OpenAI gives. */
  readonly pageSize?: number
}

/**
 * The bulk lane over OpenAI's Batch API (docs/engine.md, The bulk lane): the JSONL of the
 * per-request lane's bodies uploaded to `{url}/files`, batches created, polled, listed and
 * cancelled at `{url}/batches`, and the output and error files read from `{url}/files/{id}/content`
 * line by line. The reads, which can be repeated, are tried again after a transient failure (a file from its
 * start); the uploads and posts are tried once. HTTP failures are EngineErrors as the per-request lane's.
 */
export function createOpenAiBatch(at: BatchTarget, options: OpenAiBatchOptions = {}): BatchLane {
  const { limits, transfer, repeat } = laneSettings(at, options, OPENAI_BATCH_LIMITS)
  const json = async (posted: Promise<Posted>) => jsonObject(sentText(await posted, at.apiKey))
  const get = (url: string, signal?: AbortSignal) =>
    json(sendRepeated(() => sendTo(at.target, url, 'GET', undefined, signal), repeat, signal))
  const status = async (body: Promise<Record<string, unknown>>) => toBatchStatus(await body)
  const batches = `${at.root}/batches`
  return {
    pack: (items) => packItems(items, limits),
    async upload(pack, signal) {
      const form = new FormData()
      form.append('purpose', 'batch')
      form.append('file', new Blob(packLines(pack.items), { type: 'application/jsonl' }), 'judge-batch.jsonl')
      const file = await json(sendTo(transfer, `${at.root}/files`, 'POST', form, signal))
      if (typeof file.id !== 'string' || file.id === '')
        throw unusable(`the uploaded file's field "id" is ${shown(file.id)}`)
      return file.id
    },
    create: (fileId, tag, signal) => status(json(sendTo(at.target, batches, 'POST', createBody(fileId, tag), signal))),
    retrieve: (id, signal) => status(get(`${batches}/${encodeURIComponent(id)}`, signal)),
    cancel: (id, signal) =>
      status(json(sendTo(at.target, `${batches}/${encodeURIComponent(id)}/cancel`, 'POST', '{}', signal))),
    find: (tag, signal) => findTagged((after) => get(listUrl(batches, options.pageSize ?? 100, after), signal), tag),
    async collect(status, items, signal) {
      const gathering = gatherOutcomes(items)
      for (const file of [status.outputFileId, status.errorFileId]) {
        if (file === null) continue
        const url = `${at.root}/files/${encodeURIComponent(file)}/content`
        sentText(await downloadLines(transfer, url, gathering, repeat, signal), at.apiKey)
      }
      return gathering.outcomes()
    },
  }
}

function createBody(fileId: string, tag: string): string {
  return JSON.stringify({
    input_file_id: fileId,
    endpoint: BATCH_ENDPOINT,
    completion_window: '24h',
    metadata: { [TAG_KEY]: tag },
  })
}

function listUrl(batches: string, limit: number, after: string | null): string {
  return `${batches}?limit=${limit}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`
}

/**
 * The newest batch tagged `tag`, paging the provider's list (newest first) while it says it has
 * more; a page that is empty or does not move the cursor on ends the search.
 */
async function findTagged(
  page: (after: string | null) => Promise<Record<string, unknown>>,
  tag: string,
): Promise<BatchStatus | null> {
  let after: string | null = null
  for (;;) {
    const listed = await page(after)
    const data = Array.isArray(listed.data) ? listed.data.filter(isRecord) : []
    const found = data.find((b) => tagOf(b) === tag)
    if (found) return toBatchStatus(found)
    const last = data.at(-1)?.id
    if (listed.has_more !== true || typeof last !== 'string' || last === after) return null
    after = last
  }
}
