import { Transform, type TransformCallback } from 'node:stream'

/**
 * The reporter of `npm test` (tap's `--reporter` takes a stream class): quiet while tests pass,
 * whole on failure. It prints one line per skipped test with its reason, the complete TAP of each
 * test file that failed, tap's own summary comments (`# { total: …, pass: … }`, which CI reads),
 * and a count of test files. It reads tap's raw output: a `# Subtest: <file>` line, the file's
 * indented TAP, then an `ok` or `not ok` line for the file at the top level.
 */
export default class TerseReporter extends Transform {
  #rest = ''
  #block: string[] = []
  #failing = false
  readonly #files = { passed: 0, failed: 0 }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    const lines = (this.#rest + String(chunk)).split('\n')
    this.#rest = lines.pop() ?? ''
    for (const line of lines) this.#line(line)
    done()
  }

  override _flush(done: TransformCallback): void {
    if (this.#rest !== '') this.#line(this.#rest)
    this.#endBlock()
    const { passed, failed } = this.#files
    this.push(`test files: ${passed} passed, ${failed} failed\n`)
    done()
  }

  #line(line: string): void {
    if (line.startsWith('# Subtest: ')) {
      this.#endBlock()
      this.#block = [line]
      return
    }
    const result = /^(not )?ok \d+ - /.exec(line)
    if (result) {
      this.#block.push(line)
      this.#failing = result[1] !== undefined
      this.#files[this.#failing ? 'failed' : 'passed'] += 1
      return
    }
    // Indented lines belong to the file's block: its TAP, or the diagnostics after a `not ok`.
    if (/^\s/.test(line) || line === '') {
      this.#block.push(line)
      const skip = /^\s+ok \d+ - (.*) # SKIP (.*)$/.exec(line)
      if (skip) this.push(`skipped: ${skip[1]} (${skip[2]})\n`)
      return
    }
    this.#endBlock()
    if (!/^(TAP version|1\.\.)/.test(line)) this.push(`${line}\n`)
  }

  #endBlock(): void {
    if (this.#failing) this.push(this.#block.join('\n') + '\n')
    this.#block = []
    this.#failing = false
  }
}
