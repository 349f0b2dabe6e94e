import t from 'tap'
import { overCapMessage, readCapped, readLines, sizeText } from '../../src/adapters/engine-body.ts'

/** A response streaming `chunks` chunks of `size` bytes, counting the chunks pulled from it. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}) {
  let pulled = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close()
      pulled++
      controller.enqueue(new Uint8Array(size).fill(0x61))
    },
  })
  return { response: new Response(body, { headers }), pulled: () => pulled }
}

t.test('a body within the cap is read whole, as UTF-8', async (t) => {
  let stopped = 0
  t.same(await readCapped(new Response('{"a":"é"}'), 1024, () => stopped++), { ok: true, text: '{"a":"é"}' })
  t.same(await readCapped(new Response(null), 1024, () => stopped++), { ok: true, text: '' })
  const exact = streamed(4, 256)
  t.same(
    await readCapped(exact.response, 1024, () => stopped++),
    { ok: true, text: 'a'.repeat(1024) },
    'exactly the cap',
  )
  t.equal(stopped, 0)
})

t.test('a body that grows past the cap is read no further, and the request is stopped', async (t) => {
  let stopped = 0
  const huge = streamed(10_000, 64 * 1024)
  t.same(await readCapped(huge.response, 256 * 1024, () => stopped++), {
    ok: false,
    message: "the engine's answer was over 256 KiB (ENGINE_MAX_RESPONSE_BYTES), so it was not read",
  })
  t.equal(stopped, 1)
  t.ok(huge.pulled() <= 6, `${huge.pulled()} chunks of 64 KiB pulled, of 10,000`)
})

t.test('a body declared over the cap is not read at all', async (t) => {
  let stopped = 0
  const declared = streamed(10, 1, { 'content-length': String(5 * 2 ** 20) })
  t.match(await readCapped(declared.response, 4 * 2 ** 20, () => stopped++), { ok: false, message: /over 4 MiB/ })
  t.equal(stopped, 1)
  t.equal(declared.response.bodyUsed, false, 'not a byte read')
})

t.test('sizes are told in their largest whole unit', async (t) => {
  t.equal(sizeText(4 * 2 ** 20), '4 MiB')
  t.equal(sizeText(65_536), '64 KiB')
  t.equal(sizeText(1500), '1500 bytes')
  t.match(overCapMessage(2048), /over 2 KiB/)
})

t.test(
  'a body read as lines gives each line as it arrives, split across chunks or not, without its break',
  async (t) => {
    const chunks = ['{"a":1}\n{"b":', '"é"}\n\n', '{"c":3}']
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
        controller.close()
      },
    })
    const lines: string[] = []
    t.same(
      await readLines(
        new Response(body),
        1024,
        () => t.fail('not stopped'),
        (l) => lines.push(l),
      ),
      {
        ok: true,
        text: '',
      },
    )
    t.same(lines, ['{"a":1}', '{"b":"é"}', '', '{"c":3}'])
    const ended: string[] = []
    await readLines(
      new Response('x\n'),
      1024,
      () => {},
      (l) => ended.push(l),
    )
    t.same(ended, ['x'], 'a final break adds no empty line')
    t.same(
      await readLines(
        new Response(null),
        1024,
        () => {},
        () => t.fail('no line'),
      ),
      { ok: true, text: '' },
    )
  },
)

t.test('a line that grows past the cap is read no further, and the request is stopped', async (t) => {
  let stopped = 0
  const huge = streamed(10_000, 64 * 1024)
  t.same(
    await readLines(
      huge.response,
      256 * 1024,
      () => stopped++,
      () => t.fail('no whole line'),
    ),
    { ok: false, message: "the engine's answer was over 256 KiB (ENGINE_MAX_RESPONSE_BYTES), so it was not read" },
  )
  t.equal(stopped, 1)
  t.ok(huge.pulled() <= 6, `${huge.pulled()} chunks of 64 KiB pulled, of 10,000`)
  const whole: string[] = []
  t.match(
    await readLines(
      new Response(`ok\n${'a'.repeat(2000)}\nok\n`),
      1024,
      () => stopped++,
      (l) => whole.push(l),
    ),
    {
      ok: false,
      message: /over 1 KiB/,
    },
  )
  t.same(whole, [], 'a whole line over the cap in the chunk stops it too, before its lines are given')
})
