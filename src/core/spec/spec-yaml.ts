import { LineCounter, parseDocument } from 'yaml'
import type { YAMLError } from 'yaml'
import { SpecError } from '../../errors.ts'

// Unquoted, `>= 0.9` starts a folded block and `!= 0.9` a tag: YAML's messages then say neither.
const UNQUOTED_COMPARISON = /indicator >|characters: >=|tag: !=/

/**
 * Reads the YAML text of a spec into plain values: mappings as Maps (so keys keep their YAML type
 * and order, and no key can reach an object prototype), lists as arrays, scalars as themselves.
 * Every YAML error or warning is a SpecError with its line and column.
 */
export function readYaml(text: string, file: string): unknown {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, {
    // YAML 1.2 core: `yes` and `no` are strings, as labels of a yes_no question must be.
    version: '1.2',
    schema: 'core',
    merge: false,
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
    lineCounter,
  })
  const problem = doc.errors[0] ?? doc.warnings[0]
  if (problem) throw yamlError(problem, lineCounter, file)
  try {
    return doc.toJS({ mapAsMap: true })
  } catch (error) {
    // toJS refuses documents whose aliases expand beyond a safe size.
    throw new SpecError(file, '', `invalid YAML: ${(error as Error).message}`, { cause: error })
  }
}

function yamlError(problem: YAMLError, lines: LineCounter, file: string): SpecError {
  const { line, col } = lines.linePos(problem.pos[0])
  const message = problem.message.replace(/\s+/g, ' ').trim()
  const hint = UNQUOTED_COMPARISON.test(message) ? '; write comparisons in quotes, as in p: ">= 0.9"' : ''
  return new SpecError(file, '', `invalid YAML at line ${line}, column ${col}: ${message}${hint}`, { cause: problem })
}
